/// Which renderer should serve a document: one by id, or `auto`.
public enum RendererSelection: Hashable, Sendable, CustomStringConvertible {
    /// The first renderer that opens the content type and has the capabilities needed,
    /// falling back to the next when one finds the file too damaged to open.
    case auto
    /// The renderer with this id.
    case id(String)

    /// Reads `auto` or a renderer id, as the command line and environment give them.
    public init(_ text: String) {
        let name = text.lowercased()
        self = name == "auto" ? .auto : .id(name)
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .id(let id): id
        }
    }
}
