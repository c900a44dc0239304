/// Where a link or outline item leads.
///
/// In JSON, an object whose `kind` says which: `{"kind": "page", "index": 2, "point": {"x":
/// 72, "y": 40}, "view": {"fit": "XYZ", "left": 72, "top": 40}}` (`point` and `view` left out
/// when absent; `index` counts from 0) or `{"kind": "uri", "uri": "https://example.org"}`.
public enum Destination: Hashable, Sendable, Codable {
    /// A page of the same document; the point on it (in that page's page space) to show at
    /// the top-left, when the destination names one; and, for a PDF, how the destination
    /// asks the page to be shown (``DestinationView``: the rectangle of `FitR`, the zoom of
    /// `XYZ`). Named destinations are resolved to this.
    case page(index: Int, point: PagePoint?, view: DestinationView? = nil)
    /// Something outside the document: a web address, a mail address, another file.
    case uri(String)

    private enum Kind: String, Codable {
        case page, uri
    }

    private enum CodingKeys: String, CodingKey {
        case kind, index, point, view, uri
    }

    /// Reads the JSON object described above; any other `kind` is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .page:
            self = .page(
                index: try container.decode(Int.self, forKey: .index),
                point: try container.decodeIfPresent(PagePoint.self, forKey: .point),
                view: try container.decodeIfPresent(DestinationView.self, forKey: .view))
        case .uri:
            self = .uri(try container.decode(String.self, forKey: .uri))
        }
    }

    /// Writes the JSON object described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .page(let index, let point, let view):
            try container.encode(Kind.page, forKey: .kind)
            try container.encode(index, forKey: .index)
            try container.encodeIfPresent(point, forKey: .point)
            try container.encodeIfPresent(view, forKey: .view)
        case .uri(let uri):
            try container.encode(Kind.uri, forKey: .kind)
            try container.encode(uri, forKey: .uri)
        }
    }
}

/// How a PDF destination asks its page to be shown (ISO 32000-1, 12.3.2.2), converted into
/// the page's page space: the same on every engine, whatever the page's crop box and
/// rotation. A coordinate the destination leaves open (`null`), or that the page's rotation
/// turns into the other axis, is nil.
public struct DestinationView: Hashable, Sendable, Codable {
    /// The kinds of destination, named as PDF writes them.
    public enum Fit: String, Hashable, Sendable, Codable, CaseIterable {
        /// A point at the window's top-left, at a zoom.
        case xyz = "XYZ"
        /// The whole page.
        case fit = "Fit"
        /// The page's width, from a top edge.
        case fitH = "FitH"
        /// The page's height, from a left edge.
        case fitV = "FitV"
        /// A rectangle.
        case fitR = "FitR"
        /// The page's content (its bounding box).
        case fitB = "FitB"
        /// The content's width, from a top edge.
        case fitBH = "FitBH"
        /// The content's height, from a left edge.
        case fitBV = "FitBV"
    }

    /// The kind of destination.
    public var fit: Fit
    /// The page-space x at the window's left edge (XYZ, FitV, FitBV, FitR), or nil.
    public var left: Double?
    /// The page-space y at the window's top edge (XYZ, FitH, FitBH, FitR), or nil.
    public var top: Double?
    /// For FitR, the rectangle to fit in the window, in page space.
    public var rect: PageRect?
    /// For XYZ, the zoom (1 is 100%); nil when the destination keeps the reader's.
    public var zoom: Double?

    /// A view of kind `fit` with the edges, rectangle and zoom given, in page space.
    public init(fit: Fit, left: Double? = nil, top: Double? = nil, rect: PageRect? = nil, zoom: Double? = nil) {
        self.fit = fit
        self.left = left
        self.top = top
        self.rect = rect
        self.zoom = zoom
    }

    /// The point a viewer shows at the top-left: the rectangle's corner for FitR, else the
    /// edges given (0 for one left open); nil when the view names neither edge.
    public var point: PagePoint? {
        if let rect { return PagePoint(x: rect.minX, y: rect.minY) }
        guard left != nil || top != nil else { return nil }
        return PagePoint(x: left ?? 0, y: top ?? 0)
    }
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
///
/// In JSON, `title` is required; `destination` (a ``Destination``), `isOpen`, `children`,
/// `color` (`{"red": 1, "green": 0, "blue": 0, "alpha": 1}`), `isBold` and `isItalic` may be
/// left out, which reads as none, closed, none, none, false and false.
public struct OutlineItem: Hashable, Sendable, Codable {
    /// The item's title.
    public var title: String
    /// `nil` when the item leads nowhere the API can express (or its named destination is missing).
    public var destination: Destination?
    /// Whether the document asks for the item's children to be shown.
    public var isOpen: Bool
    /// The items below this one, in order.
    public var children: [OutlineItem]
    /// The colour the title is shown in (`/C`); nil for the reader's own. Alpha is not kept.
    public var color: Color?
    /// Whether the title is shown in bold (`/F` bit 2).
    public var isBold: Bool
    /// Whether the title is shown in italic (`/F` bit 1).
    public var isItalic: Bool

    /// Outlines are cut below this depth; a deeper one is malformed or hostile.
    public static let maximumDepth = 100

    /// An outline item.
    public init(
        title: String, destination: Destination?, isOpen: Bool = false, children: [OutlineItem] = [],
        color: Color? = nil, isBold: Bool = false, isItalic: Bool = false
    ) {
        self.title = title
        self.destination = destination
        self.isOpen = isOpen
        self.children = children
        self.color = color
        self.isBold = isBold
        self.isItalic = isItalic
    }

    private enum CodingKeys: String, CodingKey {
        case title, destination, isOpen, children, color, isBold, isItalic
    }

    /// Reads the JSON object described above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try container.decode(String.self, forKey: .title),
            destination: try container.decodeIfPresent(Destination.self, forKey: .destination),
            isOpen: try container.decodeIfPresent(Bool.self, forKey: .isOpen) ?? false,
            children: try container.decodeIfPresent([OutlineItem].self, forKey: .children) ?? [],
            color: try container.decodeIfPresent(Color.self, forKey: .color),
            isBold: try container.decodeIfPresent(Bool.self, forKey: .isBold) ?? false,
            isItalic: try container.decodeIfPresent(Bool.self, forKey: .isItalic) ?? false)
    }

    /// The number of items in `items` and below them.
    public static func count(_ items: [OutlineItem]) -> Int {
        items.reduce(items.count) { $0 + count($1.children) }
    }

    /// The depth of the deepest item of `items`: 1 for items without children, 0 for none.
    public static func depth(_ items: [OutlineItem]) -> Int {
        items.map { 1 + depth($0.children) }.max() ?? 0
    }
}
