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

    private var lexer: PDFLexer

    /// Reads every object of `bytes`.
    init(_ bytes: [UInt8]) throws {
        lexer = PDFLexer(bytes)
        while let token = try nextToken() {
            switch token {
            case .integer(let number):
                let start = lexer.position
                if case .integer = try nextToken(), case .keyword("obj") = try nextToken() {
                    objects[number] = try readObject(depth: 0)
                    try skipStream()
                } else {
                    lexer.position = start
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

    private mutating func readObject(depth: Int) throws -> FDFObject {
        guard depth < Self.depthLimit else { throw Self.error("objects nest deeper than \(Self.depthLimit) levels") }
        guard let token = try nextToken() else { throw Self.error("it ends inside an object") }
        switch token {
        case .integer(let number):
            let start = lexer.position
            if case .integer = try nextToken(), case .keyword("R") = try nextToken() { return .reference(number) }
            lexer.position = start
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
                let start = lexer.position
                if case .close("]") = try nextToken() { return .array(items) }
                lexer.position = start
                items.append(try readObject(depth: depth + 1))
            }
        case .open("<<"):
            var dictionary: [String: FDFObject] = [:]
            while true {
                switch try nextToken() {
                case .close(">>"): return .dictionary(dictionary)
                case .name(let key): dictionary[key] = try readObject(depth: depth + 1)
                case nil: throw Self.error("it ends inside a dictionary")
                default: throw Self.error("a dictionary key is not a name (byte \(lexer.position))")
                }
            }
        default:
            throw Self.error("unexpected \(token) at byte \(lexer.position)")
        }
    }

    /// The next token; the lexer's complaint as this reader's error.
    private mutating func nextToken() throws -> PDFLexer.Token? {
        do {
            return try lexer.nextToken()
        } catch let error as PDFLexer.SyntaxError {
            throw Self.error(error.reason)
        }
    }

    /// Skips a stream's data after its dictionary, up to `endstream`.
    private mutating func skipStream() throws {
        let start = lexer.position
        guard case .keyword("stream") = try nextToken() else {
            lexer.position = start
            return
        }
        let (bytes, end) = (lexer.bytes, Array("endstream".utf8))
        var position = lexer.position
        while position + end.count <= bytes.count, !bytes[position..<position + end.count].elementsEqual(end) { position += 1 }
        guard position + end.count <= bytes.count else { throw Self.error("a stream has no endstream") }
        lexer.position = position + end.count
    }
}
