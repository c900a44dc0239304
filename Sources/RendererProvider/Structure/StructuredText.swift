/// The text of pages with its structure: headings with their levels, paragraphs, lists,
/// tables and figures, page by page in reading order. ``Document/structuredText(pages:cancellation:)`` makes it;
/// ``markdown`` and ``html(title:)`` write it out.
public struct StructuredText: Hashable, Sendable, Codable {
    /// The pages asked for, in the order asked.
    public var pages: [Page]

    /// A structure of `pages`.
    public init(pages: [Page]) {
        self.pages = pages
    }

    /// The structure inferred from the layout of text pages a caller has read (in parallel,
    /// say), as ``Document/structuredText(pages:cancellation:)`` infers it from the same pages,
    /// with the areas of their figures by page index (``Document/figureAreas(of:)``) placed
    /// in reading order, and the tables their rules (``Document/drawing(pages:)``) draw read
    /// cell by cell.
    public init(inferringFrom pages: [(index: Int, page: TextPage)], figures: [Int: [PageRect]] = [:], rules: [Int: [PageRule]] = [:]) {
        let analysis = LayoutAnalysis(pages: pages.map(\.page), figures: pages.map { figures[$0.index] ?? [] }, rules: pages.map { rules[$0.index] ?? [] })
        self.pages = zip(pages, analysis.pages).map { Page(index: $0.index, elements: $1.elements, source: .layout, figureAreas: $1.figureAreas) }
    }

    /// The structure of the pages at `indices`, in that order: those of `tagged` (from
    /// ``Document/taggedStructure(pages:)``) as they are, every other one inferred from its
    /// text page in `textPages`, its `figures` and its `rules`, as
    /// ``init(inferringFrom:figures:rules:)`` infers it from them all. A page in neither is left out.
    public init(
        pages indices: [Int], tagged: [Page], inferringFrom textPages: [(index: Int, page: TextPage)], figures: [Int: [PageRect]] = [:],
        rules: [Int: [PageRule]] = [:]
    ) {
        var byIndex: [Int: Page] = [:]
        for page in StructuredText(inferringFrom: textPages, figures: figures, rules: rules).pages + tagged { byIndex[page.index] = page }
        self.pages = indices.compactMap { byIndex[$0] }
    }
}

extension StructuredText {
    /// One page's structure.
    public struct Page: Hashable, Sendable, Codable {
        /// The page's index in the document, from 0.
        public var index: Int
        /// What the page holds, in reading order.
        public var elements: [StructuredText.Element]
        /// Where the structure comes from.
        public var source: Source
        /// The links on its headings' and paragraphs' text, in reading order.
        public var links: [StructuredText.Link]
        /// Where its figures lie on the page (page space, in points), one area for each
        /// ``Element/figure(alternateText:)`` of ``elements`` in their order; nil where the
        /// source does not say (a tagged structure tree).
        public var figureAreas: [PageRect]?

        /// The structure of the page at `index`, from `source`, with `links` on its text and
        /// its figures' areas where they are known.
        public init(index: Int, elements: [StructuredText.Element], source: Source, links: [StructuredText.Link] = [], figureAreas: [PageRect]? = nil) {
            self.index = index
            self.elements = elements
            self.source = source
            self.links = links
            self.figureAreas = figureAreas
        }
    }

    /// Words of a heading or a paragraph that a link covers, and where it leads.
    public struct Link: Hashable, Sendable, Codable {
        /// The index of the heading or paragraph in its page's ``Page/elements``.
        public var element: Int
        /// Where the words begin in the element's text, in Unicode scalars (code points)
        /// from its start.
        public var start: Int
        /// The words, as the element's text holds them.
        public var text: String
        /// Where the link leads.
        public var destination: Destination

        /// A link on `text`, at `start` in the text of element `element`, to `destination`.
        public init(element: Int, start: Int, text: String, destination: Destination) {
            self.element = element
            self.start = start
            self.text = text
            self.destination = destination
        }
    }

    /// Where a page's structure comes from.
    public enum Source: String, Hashable, Sendable, Codable {
        /// The document's tagged structure tree, as its author's software wrote it.
        case structureTree
        /// Inferred from the layout of the page's text (``StructuredText/init(inferringFrom:figures:rules:)``).
        case layout
    }

    /// One part of a page's text.
    public enum Element: Hashable, Sendable, Codable {
        /// A heading of `level`, from 1 (the largest) to 6.
        case heading(level: Int, text: String)
        /// A paragraph: its lines joined by spaces, a word broken by a hyphen at a line's end
        /// joined again.
        case paragraph(String)
        /// Lines set in a monospaced font, such as program code, joined by line breaks.
        case code(String)
        /// A list's items, each without its bullet or number.
        case list(ordered: Bool, items: [String])
        /// A table's cells, row by row; the first row is its header.
        case table(rows: [[String]])
        /// A figure, with its alternate description where the document gives one.
        case figure(alternateText: String?)

        /// The element's text, as plain text: a list's items and a table's rows on lines of
        /// their own, a table's cells separated by tabs, a figure's alternate description.
        public var text: String {
            switch self {
            case .heading(_, let text), .paragraph(let text), .code(let text): text
            case .list(_, let items): items.joined(separator: "\n")
            case .table(let rows): rows.map { $0.joined(separator: "\t") }.joined(separator: "\n")
            case .figure(let alternateText): alternateText ?? ""
            }
        }
    }
}

extension StructuredText.Element {
    private enum CodingKeys: String, CodingKey {
        case kind, level, text, ordered, items, rows, alternateText
    }

    /// Encoded as an object whose `kind` is `heading`, `paragraph`, `code`, `list`, `table`
    /// or `figure`, with the case's values under their own names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .heading(let level, let text):
            try container.encode("heading", forKey: .kind)
            try container.encode(level, forKey: .level)
            try container.encode(text, forKey: .text)
        case .paragraph(let text):
            try container.encode("paragraph", forKey: .kind)
            try container.encode(text, forKey: .text)
        case .code(let text):
            try container.encode("code", forKey: .kind)
            try container.encode(text, forKey: .text)
        case .list(let ordered, let items):
            try container.encode("list", forKey: .kind)
            try container.encode(ordered, forKey: .ordered)
            try container.encode(items, forKey: .items)
        case .table(let rows):
            try container.encode("table", forKey: .kind)
            try container.encode(rows, forKey: .rows)
        case .figure(let alternateText):
            try container.encode("figure", forKey: .kind)
            try container.encodeIfPresent(alternateText, forKey: .alternateText)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "heading": self = .heading(level: try container.decode(Int.self, forKey: .level), text: try container.decode(String.self, forKey: .text))
        case "paragraph": self = .paragraph(try container.decode(String.self, forKey: .text))
        case "code": self = .code(try container.decode(String.self, forKey: .text))
        case "list": self = .list(ordered: try container.decode(Bool.self, forKey: .ordered), items: try container.decode([String].self, forKey: .items))
        case "table": self = .table(rows: try container.decode([[String]].self, forKey: .rows))
        case "figure": self = .figure(alternateText: try container.decodeIfPresent(String.self, forKey: .alternateText))
        case let kind:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "no element is of kind \(kind)")
        }
    }
}
