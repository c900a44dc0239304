/// Where a link or outline item leads.
public enum Destination: Hashable, Sendable, Codable {
    /// A page of the same document, and the point on it (in that page's page space) to show
    /// at the top-left, when the destination names one. Named destinations are resolved to this.
    case page(index: Int, point: PagePoint?)
    /// Something outside the document: a web address, a mail address, another file.
    case uri(String)
}

/// A link on a page: the area that reacts, and where it leads.
public struct Link: Hashable, Sendable, Codable {
    /// The area that reacts, in page space.
    public var area: PageRect
    /// Where the link leads.
    public var destination: Destination

    /// A link from `area` to `destination`.
    public init(area: PageRect, destination: Destination) {
        self.area = area
        self.destination = destination
    }
}

/// An entry of the document's outline (its table of contents).
public struct OutlineItem: Hashable, Sendable, Codable {
    /// The item's title.
    public var title: String
    /// `nil` when the item leads nowhere the API can express (or its named destination is missing).
    public var destination: Destination?
    /// Whether the document asks for the item's children to be shown.
    public var isOpen: Bool
    /// The items below this one, in order.
    public var children: [OutlineItem]

    /// Outlines are cut below this depth; a deeper one is malformed or hostile.
    public static let maximumDepth = 100

    /// An outline item.
    public init(title: String, destination: Destination?, isOpen: Bool, children: [OutlineItem]) {
        self.title = title
        self.destination = destination
        self.isOpen = isOpen
        self.children = children
    }
}
