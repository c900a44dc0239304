#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// Reads a content stream (ISO 32000-1, 7.8.2) as operators and their operands, for the
/// algorithms that need what a page draws rather than how it looks (``PDFObjectReading``'s
/// image list). Operands are read as ``PDFObject``s where a caller needs them (names,
/// numbers, booleans, arrays, dictionaries; strings as their bytes); an inline image comes as
/// one operator, `BI`, with its dictionary and its data. Damage ends the reading where it is:
/// what came before is kept, as the engines draw it.
package struct ContentStreamScanner {
    /// One operator and the operands before it.
    package struct Operation {
        /// The operator: `Do`, `gs`, `BI` (an inline image), ...
        package var name: String
        package var operands: [PDFObject]
        /// For `BI`: the image's dictionary, keys as written (abbreviations kept).
        package var inlineDictionary: [String: PDFObject] = [:]
        /// For `BI`: the image's data, between `ID` and `EI`.
        package var inlineData: Data = Data()
    }

    private let bytes: [UInt8]
    private var position = 0
    /// The most operands an operator keeps, and the deepest nesting of arrays and
    /// dictionaries read: more is damage, not a drawing.
    private static let operandLimit = 64
    private static let nestingLimit = 32

    package init(_ data: Data) {
        bytes = [UInt8](data)
    }

    /// The next operation; nil at the end (or where damage stops the reading).
    package mutating func next() -> Operation? {
        var operands: [PDFObject] = []
        while let token = readToken() {
            switch token {
            case .operand(let object):
                if operands.count == Self.operandLimit { operands.removeFirst() }
                operands.append(object)
            case .keyword(let name):
                if name == "BI" { return readInlineImage() }
                return Operation(name: name, operands: operands)
            case .close:
                operands.removeAll()  // a stray `]` or `>>`: the operands before it are garbage
            }
        }
        return nil
    }

    private enum Token {
        case operand(PDFObject)
        case keyword(String)
        /// `]` or `>>`, which `readObject` reads within an array or a dictionary.
        case close
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0 || byte == 9 || byte == 10 || byte == 12 || byte == 13 || byte == 32
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        "()<>[]{}/%".utf8.contains(byte)
    }

    private mutating func skipWhitespaceAndComments() {
        while position < bytes.count {
            if Self.isWhitespace(bytes[position]) {
                position += 1
            } else if bytes[position] == UInt8(ascii: "%") {
                while position < bytes.count, bytes[position] != 10, bytes[position] != 13 { position += 1 }
            } else {
                return
            }
        }
    }

    private mutating func readToken(depth: Int = 0) -> Token? {
        skipWhitespaceAndComments()
        guard position < bytes.count, depth <= Self.nestingLimit else { return nil }
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "/"):
            position += 1
            return .operand(.name(readName()))
        case UInt8(ascii: "("):
            return readLiteralString().map { .operand(.string($0)) }
        case UInt8(ascii: "<"):
            if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "<") {
                position += 2
                var entries: [String: PDFObject] = [:]
                while true {
                    guard let key = readToken(depth: depth + 1) else { return nil }
                    guard case .operand(.name(let name)) = key else {
                        if case .close = key { return .operand(.dictionary(entries)) }
                        continue
                    }
                    guard let value = readToken(depth: depth + 1) else { return nil }
                    if case .operand(let object) = value { entries[name] = object } else if case .close = value { return .operand(.dictionary(entries)) }
                }
            }
            return readHexString().map { .operand(.string($0)) }
        case UInt8(ascii: ">"):
            position += position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: ">") ? 2 : 1
            return .close
        case UInt8(ascii: "["):
            position += 1
            var items: [PDFObject] = []
            while true {
                guard let item = readToken(depth: depth + 1) else { return nil }
                switch item {
                case .operand(let object): items.append(object)
                case .close: return .operand(.array(items))
                case .keyword(let word): items.append(Self.keywordValue(word) ?? .null)
                }
            }
        case UInt8(ascii: "]"):
            position += 1
            return .close
        case UInt8(ascii: "{"), UInt8(ascii: "}"):
            position += 1
            return .keyword(String(UnicodeScalar(byte)))
        default:
            let start = position
            while position < bytes.count, !Self.isWhitespace(bytes[position]), !Self.isDelimiter(bytes[position]) { position += 1 }
            if position == start { position += 1 }  // a `)` out of place
            let word = String(decoding: bytes[start..<position], as: UTF8.self)
            return Self.keywordValue(word).map { .operand($0) } ?? .keyword(word)
        }
    }

    /// A number, `true`, `false` or `null` spelled `word`; nil for an operator.
    private static func keywordValue(_ word: String) -> PDFObject? {
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default:
            if let integer = Int(word) { return .integer(integer) }
            if let first = word.utf8.first, "+-.0123456789".utf8.contains(first), let real = Double(word), real.isFinite { return .real(real) }
            return nil
        }
    }

    /// A name's characters after `/`, `#xx` escapes decoded.
    private mutating func readName() -> String {
        var name: [UInt8] = []
        while position < bytes.count, !Self.isWhitespace(bytes[position]), !Self.isDelimiter(bytes[position]) {
            if bytes[position] == UInt8(ascii: "#"), position + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[(position + 1)...(position + 2)], as: UTF8.self), radix: 16)
            {
                name.append(value)
                position += 3
            } else {
                name.append(bytes[position])
                position += 1
            }
        }
        return String(decoding: name, as: UTF8.self)
    }

    /// A `(...)` string's bytes (escapes are not decoded: the callers only skip strings).
    private mutating func readLiteralString() -> [UInt8]? {
        position += 1
        let start = position
        var depth = 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 1
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 {
                    position += 1
                    return Array(bytes[start..<(position - 1)])
                }
            default: break
            }
            position += 1
        }
        return nil
    }

    /// A `<...>` string's bytes.
    private mutating func readHexString() -> [UInt8]? {
        position += 1
        var digits: [UInt8] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            if let digit = UInt8(String(UnicodeScalar(bytes[position])), radix: 16) { digits.append(digit) }
            position += 1
        }
        guard position < bytes.count else { return nil }
        position += 1
        if digits.count % 2 == 1 { digits.append(0) }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// An inline image after `BI`: its dictionary up to `ID`, then its data up to the `EI`
    /// that stands alone (white space before it and after it, or the end).
    private mutating func readInlineImage() -> Operation? {
        var operation = Operation(name: "BI", operands: [])
        while true {
            guard let token = readToken() else { return nil }
            if case .keyword("ID") = token { break }
            guard case .operand(.name(let key)) = token, let value = readToken(), case .operand(let object) = value else { continue }
            operation.inlineDictionary[key] = object
        }
        if position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        let start = position
        while position + 1 < bytes.count {
            if bytes[position] == UInt8(ascii: "E"), bytes[position + 1] == UInt8(ascii: "I"), position > start, Self.isWhitespace(bytes[position - 1]),
                position + 2 == bytes.count || Self.isWhitespace(bytes[position + 2]) || Self.isDelimiter(bytes[position + 2])
            {
                operation.inlineData = Data(bytes[start..<(position - 1)])
                position += 2
                return operation
            }
            position += 1
        }
        return nil
    }
}
