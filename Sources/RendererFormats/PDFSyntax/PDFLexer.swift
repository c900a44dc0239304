/// The tokens of PDF's object syntax (ISO 32000-1, 7.2 and 7.3): numbers, names (`#xx`
/// escapes resolved), strings (escapes and hexadecimal digits resolved), the brackets of
/// arrays and dictionaries, and every other run of regular characters as a keyword (`obj`,
/// `R`, `true`, a content stream's operators). What FDF files and content streams are read with.
package struct PDFLexer {
    /// One token.
    package enum Token: Equatable {
        case integer(Int)
        case real(Double)
        case keyword(String)
        case name(String)
        case string([UInt8])
        /// `[` or `<<`.
        case open(String)
        /// `]` or `>>`.
        case close(String)
    }

    /// What is not PDF syntax, and where.
    package struct SyntaxError: Error {
        package var reason: String
    }

    /// The bytes read.
    package let bytes: [UInt8]
    /// Where the next token is looked for; a reader may set it back to read again.
    package var position = 0

    /// A lexer at the start of `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// PDF's white-space characters.
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0, 9, 10, 12, 13, 32: true
        default: false
        }
    }
    /// PDF's delimiters.
    package static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"):
            true
        default: false
        }
    }

    /// The next token, comments and white space skipped; nil at the end. Throws
    /// ``SyntaxError`` for a byte no token begins with and a string not closed.
    package mutating func nextToken() throws -> Token? {
        while position < bytes.count {
            if Self.isWhitespace(bytes[position]) {
                position += 1
            } else if bytes[position] == UInt8(ascii: "%") {
                while position < bytes.count, bytes[position] != 10, bytes[position] != 13 { position += 1 }
            } else {
                break
            }
        }
        guard position < bytes.count else { return nil }
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "("): return .string(try literalString())
        case UInt8(ascii: "<") where peek(1) == UInt8(ascii: "<"):
            position += 2
            return .open("<<")
        case UInt8(ascii: ">") where peek(1) == UInt8(ascii: ">"):
            position += 2
            return .close(">>")
        case UInt8(ascii: "<"): return .string(try hexString())
        case UInt8(ascii: "["):
            position += 1
            return .open("[")
        case UInt8(ascii: "]"):
            position += 1
            return .close("]")
        case UInt8(ascii: "/"):
            position += 1
            return .name(name())
        default:
            let start = position
            while position < bytes.count, !Self.isWhitespace(bytes[position]), !Self.isDelimiter(bytes[position]) { position += 1 }
            guard position > start else { throw SyntaxError(reason: "unexpected byte \(byte) at byte \(start)") }
            let word = String(decoding: bytes[start..<position], as: UTF8.self)
            if let integer = Int(word) { return .integer(integer) }
            if let real = Double(word), word.allSatisfy({ $0.isNumber || "+-.".contains($0) }) { return .real(real) }
            return .keyword(word)
        }
    }

    /// The byte `offset` past the position, if there is one.
    package func peek(_ offset: Int) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    private mutating func name() -> String {
        var name: [UInt8] = []
        while position < bytes.count, !Self.isWhitespace(bytes[position]), !Self.isDelimiter(bytes[position]) {
            if bytes[position] == UInt8(ascii: "#"), position + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[position + 1...position + 2], as: UTF8.self), radix: 16)
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

    private mutating func literalString() throws -> [UInt8] {
        position += 1
        var result: [UInt8] = []
        var depth = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "("):
                depth += 1
                result.append(byte)
            case UInt8(ascii: ")"):
                if depth == 0 { return result }
                depth -= 1
                result.append(byte)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { break }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): result.append(10)
                case UInt8(ascii: "r"): result.append(13)
                case UInt8(ascii: "t"): result.append(9)
                case UInt8(ascii: "b"): result.append(8)
                case UInt8(ascii: "f"): result.append(12)
                case 13:
                    if peek(0) == 10 { position += 1 }
                case 10: break
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = Int(escaped - UInt8(ascii: "0"))
                    for _ in 0..<2 {
                        guard let next = peek(0), (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(next) else { break }
                        value = value * 8 + Int(next - UInt8(ascii: "0"))
                        position += 1
                    }
                    result.append(UInt8(truncatingIfNeeded: value))
                default: result.append(escaped)
                }
            default:
                result.append(byte)
            }
        }
        throw SyntaxError(reason: "a string is not closed")
    }

    private mutating func hexString() throws -> [UInt8] {
        position += 1
        var digits: [UInt8] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            let byte = bytes[position]
            position += 1
            if Self.isWhitespace(byte) { continue }
            guard let digit = UInt8(String(UnicodeScalar(byte)), radix: 16) else { throw SyntaxError(reason: "a hexadecimal string holds \(UnicodeScalar(byte))") }
            digits.append(digit)
        }
        guard position < bytes.count else { throw SyntaxError(reason: "a hexadecimal string is not closed") }
        position += 1
        if digits.count % 2 == 1 { digits.append(0) }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }
}
