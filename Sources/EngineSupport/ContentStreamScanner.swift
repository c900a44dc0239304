#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine
import RendererFormats

/// Reads a content stream (ISO 32000-1, 7.8.2) as operators and their operands, with
/// ``PDFLexer``'s tokens, for the algorithms that need what a page draws rather than how it
/// looks (``PDFObjectReading``'s image list). An inline image comes as one operator, `BI`,
/// with its dictionary and its data. Damage ends the reading where it is: what came before
/// is kept, as the engines draw it.
package struct ContentStreamScanner {
    /// One operator and the operands before it.
    package struct Operation {
        /// The operator: `Do`, `gs`, `BI` (an inline image), ...
        package var name: String
        /// The operands before it (the last ``ContentStreamScanner/operandLimit`` at most).
        package var operands: [PDFObject]
        /// For `BI`: the image's dictionary, keys as written (abbreviations kept).
        package var inlineDictionary: [String: PDFObject] = [:]
        /// For `BI`: the image's data, between `ID` and `EI`.
        package var inlineData = Data()
    }

    private var lexer: PDFLexer
    /// The most operands an operator keeps, and the deepest nesting of arrays and
    /// dictionaries read: more is damage, not a drawing.
    package static let operandLimit = 64
    private static let nestingLimit = 32

    package init(_ data: Data) {
        lexer = PDFLexer([UInt8](data))
    }

    /// The next operation; nil at the end (or where damage stops the reading).
    package mutating func next() -> Operation? {
        var operands: [PDFObject] = []
        while let token = try? lexer.nextToken() {
            switch token {
            case .keyword("BI"): return readInlineImage()
            case .keyword(let name) where Self.constant(name) == nil: return Operation(name: name, operands: operands)
            case .close: operands.removeAll()  // a stray `]` or `>>`: the operands before it are garbage
            default:
                guard let operand = object(from: token, depth: 0) else { return nil }
                if operands.count == Self.operandLimit { operands.removeFirst() }
                operands.append(operand)
            }
        }
        return nil
    }

    /// `true`, `false` and `null`, which the lexer gives as keywords.
    private static func constant(_ word: String) -> PDFObject? {
        switch word {
        case "true": .bool(true)
        case "false": .bool(false)
        case "null": .null
        default: nil
        }
    }

    /// The object `token` begins, an array or dictionary read to its end; nil where the
    /// stream ends or nests too deeply first.
    private mutating func object(from token: PDFLexer.Token, depth: Int) -> PDFObject? {
        guard depth < Self.nestingLimit else { return nil }
        switch token {
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .name(let name): return .name(name)
        case .string(let bytes): return .string(bytes)
        case .keyword(let word): return Self.constant(word) ?? .null  // an operator inside an array: damage
        case .close: return .null
        case .open("["):
            var items: [PDFObject] = []
            while let next = try? lexer.nextToken() {
                if case .close = next { return .array(items) }
                guard let item = object(from: next, depth: depth + 1) else { return nil }
                items.append(item)
            }
            return nil
        case .open:
            var entries: [String: PDFObject] = [:]
            while let key = try? lexer.nextToken() {
                if case .close = key { return .dictionary(entries) }
                guard case .name(let name) = key else { continue }
                guard let next = try? lexer.nextToken() else { return nil }
                if case .close = next { return .dictionary(entries) }
                guard let value = object(from: next, depth: depth + 1) else { return nil }
                entries[name] = value
            }
            return nil
        }
    }

    /// An inline image after `BI`: its dictionary up to `ID`, then its data up to the `EI`
    /// that stands alone (white space before it, and white space, a delimiter or the end after).
    private mutating func readInlineImage() -> Operation? {
        var operation = Operation(name: "BI", operands: [])
        while let token = try? lexer.nextToken() {
            if case .keyword("ID") = token {
                let bytes = lexer.bytes
                var position = lexer.position
                if position < bytes.count, PDFLexer.isWhitespace(bytes[position]) { position += 1 }
                let start = position
                while position + 1 < bytes.count {
                    if bytes[position] == UInt8(ascii: "E"), bytes[position + 1] == UInt8(ascii: "I"), position > start,
                        PDFLexer.isWhitespace(bytes[position - 1]),
                        position + 2 == bytes.count || PDFLexer.isWhitespace(bytes[position + 2]) || PDFLexer.isDelimiter(bytes[position + 2])
                    {
                        operation.inlineData = Data(bytes[start..<(position - 1)])
                        lexer.position = position + 2
                        return operation
                    }
                    position += 1
                }
                return nil
            }
            guard case .name(let key) = token, let next = try? lexer.nextToken(), let value = object(from: next, depth: 0) else { continue }
            operation.inlineDictionary[key] = value
        }
        return nil
    }
}
