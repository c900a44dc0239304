import RendererEngine

/// A PDF object of an FDF file, as ``FDFObjectReader`` reads it.
indirect enum FDFObject: Equatable {
    case null
    case boolean(Bool)
    case number(Double)
    /// A string's bytes, escapes and hexadecimal digits resolved.
    case string([UInt8])
    /// A name, `#xx` escapes resolved, read as UTF-8.
    case name(String)
    case array([FDFObject])
    case dictionary([String: FDFObject])
    case reference(Int)
}

/// Reads the objects of an FDF file (ISO 32000-1, 12.7.8): the PDF object syntax of the
/// indirect objects (`n g obj … endobj`) and the trailer. Cross-reference sections, streams'
/// data and anything else between objects are skipped. Nesting past ``depthLimit`` and
/// anything that is not PDF syntax are `invalidArgument`.
struct FDFObjectReader {
    /// How deeply arrays and dictionaries may nest.
    static let depthLimit = 64

    /// The indirect objects by number (a later definition wins, as in an update).
    private(set) var objects: [Int: FDFObject] = [:]
    /// The last trailer dictionary.
    private(set) var trailer: [String: FDFObject]?

    private let bytes: [UInt8]
    private var position = 0

    /// Reads every object of `bytes`.
    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        while let token = try nextToken() {
            switch token {
            case .integer(let number):
                let start = position
                if case .integer = try nextToken(), case .keyword("obj") = try nextToken() {
                    objects[number] = try readObject(depth: 0)
                    try skipStream()
                } else {
                    position = start
                }
            case .keyword("trailer"):
                guard case .dictionary(let dictionary) = try readObject(depth: 0) else { throw Self.error("its trailer is not a dictionary") }
                trailer = dictionary
            default:
                continue
            }
        }
    }

    /// `object`, or the object it refers to (null when there is none).
    func resolved(_ object: FDFObject?) -> FDFObject {
        guard let object else { return .null }
        if case .reference(let number) = object { return objects[number] ?? .null }
        return object
    }

    static func error(_ reason: String) -> RendererError {
        RendererError(.invalidArgument, "the file is not FDF that can be read: \(reason)")
    }

    // MARK: Objects

    private enum Token: Equatable {
        case integer(Int)
        case real(Double)
        case keyword(String)
        case name(String)
        case string([UInt8])
        case open(String)
        case close(String)
    }

    private mutating func readObject(depth: Int) throws -> FDFObject {
        guard depth < Self.depthLimit else { throw Self.error("objects nest deeper than \(Self.depthLimit) levels") }
        guard let token = try nextToken() else { throw Self.error("it ends inside an object") }
        switch token {
        case .integer(let number):
            let start = position
            if case .integer = try nextToken(), case .keyword("R") = try nextToken() { return .reference(number) }
            position = start
            return .number(Double(number))
        case .real(let number): return .number(number)
        case .name(let name): return .name(name)
        case .string(let bytes): return .string(bytes)
        case .keyword("true"): return .boolean(true)
        case .keyword("false"): return .boolean(false)
        case .keyword("null"): return .null
        case .open("["):
            var items: [FDFObject] = []
            while true {
                let start = position
                if case .close("]") = try nextToken() { return .array(items) }
                position = start
                items.append(try readObject(depth: depth + 1))
            }
        case .open("<<"):
            var dictionary: [String: FDFObject] = [:]
            while true {
                switch try nextToken() {
                case .close(">>"): return .dictionary(dictionary)
                case .name(let key): dictionary[key] = try readObject(depth: depth + 1)
                case nil: throw Self.error("it ends inside a dictionary")
                default: throw Self.error("a dictionary key is not a name (byte \(position))")
                }
            }
        default:
            throw Self.error("unexpected \(token) at byte \(position)")
        }
    }

    /// Skips a stream's data after its dictionary, up to `endstream`.
    private mutating func skipStream() throws {
        let start = position
        guard case .keyword("stream") = try nextToken() else {
            position = start
            return
        }
        let end = Array("endstream".utf8)
        while position + end.count <= bytes.count, !bytes[position..<position + end.count].elementsEqual(end) { position += 1 }
        guard position + end.count <= bytes.count else { throw Self.error("a stream has no endstream") }
        position += end.count
    }

    // MARK: Tokens

    private static func isWhitespace(_ byte: UInt8) -> Bool { [0, 9, 10, 12, 13, 32].contains(byte) }
    private static func isDelimiter(_ byte: UInt8) -> Bool { "()<>[]{}/%".utf8.contains(byte) }

    private mutating func nextToken() throws -> Token? {
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
            guard position > start else { throw Self.error("unexpected byte \(byte) at byte \(start)") }
            let word = String(decoding: bytes[start..<position], as: UTF8.self)
            if let integer = Int(word) { return .integer(integer) }
            if let real = Double(word), word.allSatisfy({ $0.isNumber || "+-.".contains($0) }) { return .real(real) }
            return .keyword(word)
        }
    }

    private func peek(_ offset: Int) -> UInt8? {
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
        throw Self.error("a string is not closed")
    }

    private mutating func hexString() throws -> [UInt8] {
        position += 1
        var digits: [UInt8] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            let byte = bytes[position]
            position += 1
            if Self.isWhitespace(byte) { continue }
            guard let digit = UInt8(String(UnicodeScalar(byte)), radix: 16) else { throw Self.error("a hexadecimal string holds \(UnicodeScalar(byte))") }
            digits.append(digit)
        }
        guard position < bytes.count else { throw Self.error("a hexadecimal string is not closed") }
        position += 1
        if digits.count % 2 == 1 { digits.append(0) }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }
}
