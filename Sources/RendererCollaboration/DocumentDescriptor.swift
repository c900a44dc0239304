import RendererProvider

/// One annotation set over one PDF: the document's identifier (the application's, not a
/// path) and a layer name. Several layers over one document are independent sets, each
/// starting from the PDF's own annotations.
///
/// Identifiers and layer names are taken verbatim (quotes, slashes and anything else a
/// string may hold), but may not be empty, hold NUL or control characters, or run past
/// 512 bytes of UTF-8.
public struct DocumentDescriptor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The document's identifier.
    public let documentID: String
    /// The layer's name.
    public let layer: String

    /// A descriptor of `layer` over `documentID`; throws `invalidArgument` for an empty,
    /// over-long or control-character identifier or name.
    public init(documentID: String, layer: String) throws {
        try Self.check(documentID, "document identifier")
        try Self.check(layer, "layer name")
        self.documentID = documentID
        self.layer = layer
    }

    /// Decodes a descriptor, checked as ``init(documentID:layer:)`` checks it.
    public init(from decoder: any Decoder) throws {
        enum Keys: String, CodingKey { case documentID, layer }
        let c = try decoder.container(keyedBy: Keys.self)
        try self.init(documentID: try c.decode(String.self, forKey: .documentID), layer: try c.decode(String.self, forKey: .layer))
    }

    public var description: String { "\(documentID) (layer \(layer))" }

    private static func check(_ text: String, _ what: String) throws {
        guard !text.isEmpty else { throw RendererError(.invalidArgument, "the \(what) is empty") }
        guard text.utf8.count <= 512 else { throw RendererError(.invalidArgument, "the \(what) is longer than 512 bytes") }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw RendererError(.invalidArgument, "the \(what) holds a control character")
        }
    }
}
