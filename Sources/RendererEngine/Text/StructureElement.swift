/// One element of a tagged PDF's structure tree (ISO 32000-1, 14.7): its standard type, what
/// it says of itself, and its content in the tree's order, which is the document's reading
/// order.
public struct StructureElement: Hashable, Sendable, Codable {
    /// The standard structure type the element is, after the document's role map: `H1` to
    /// `H6`, `H`, `P`, `L`, `LI`, `Lbl`, `LBody`, `Table`, `TR`, `TH`, `TD`, `Figure`,
    /// `Link`, `Code`, `Sect`, `Div`... (ISO 32000-1, 14.8.4); `Span` for one the engine
    /// does not know.
    public var type: String
    /// The page the element is on, from 0, where the tree says.
    public var pageIndex: Int?
    /// Its alternate description (`/Alt`), as for a figure.
    public var alternateText: String?
    /// The text that replaces its content (`/ActualText`).
    public var actualText: String?
    /// Its natural language (`/Lang`), as a BCP 47 tag.
    public var language: String?
    /// What it holds, in order.
    public var content: [Content]

    /// An element as the engine read it.
    public init(type: String, pageIndex: Int? = nil, alternateText: String? = nil, actualText: String? = nil, language: String? = nil, content: [Content]) {
        self.type = type
        self.pageIndex = pageIndex
        self.alternateText = alternateText
        self.actualText = actualText
        self.language = language
        self.content = content
    }

    /// A part of an element's content.
    public enum Content: Hashable, Sendable, Codable {
        /// A child element.
        case element(StructureElement)
        /// The text of a marked-content sequence, on the page at `pageIndex`.
        case text(String, pageIndex: Int)
    }

    /// How deep a reader walks the tree: elements below are left out, so that a hostile
    /// tree cannot exhaust the stack.
    public static let maximumDepth = 64
    /// How many elements a reader keeps: the rest of the tree is left out, so that a hostile
    /// tree cannot exhaust memory.
    public static let maximumCount = 200_000

    /// The element's child elements, in order.
    public var children: [StructureElement] {
        content.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }
}
