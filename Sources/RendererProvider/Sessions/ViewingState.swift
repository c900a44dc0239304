/// Where a reader is in a document: the page, the zoom and how far the page is scrolled.
/// A session reports it when it closes, so that the next session can open where the reader
/// left off. It is `Codable` for the host to keep as it likes.
public struct ViewingState: Hashable, Sendable, Codable {
    /// The 0-based index of the current page.
    public var pageIndex: Int
    /// The zoom factor: 1 shows a point as a point; greater than 0.
    public var zoom: Double
    /// How far the view is scrolled within the page: the page-space point at the view's
    /// top-left corner.
    public var scrollOffset: PagePoint

    /// A viewing state; the first page at 100% from its top-left corner by default.
    public init(pageIndex: Int = 0, zoom: Double = 1, scrollOffset: PagePoint = PagePoint(x: 0, y: 0)) {
        self.pageIndex = pageIndex
        self.zoom = zoom
        self.scrollOffset = scrollOffset
    }

    private enum CodingKeys: String, CodingKey {
        case pageIndex, zoom, scrollOffset
    }

    /// Reads `pageIndex`, and `zoom` and `scrollOffset` when given (the defaults of
    /// ``init(pageIndex:zoom:scrollOffset:)`` when not).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            pageIndex: try container.decode(Int.self, forKey: .pageIndex), zoom: try container.decodeIfPresent(Double.self, forKey: .zoom) ?? 1,
            scrollOffset: try container.decodeIfPresent(PagePoint.self, forKey: .scrollOffset) ?? PagePoint(x: 0, y: 0))
    }
}

/// Why a session opened at another page than the one asked for.
public struct PageClamp: Hashable, Sendable, Codable {
    /// The 0-based page index that was asked for.
    public var requested: Int
    /// The 0-based page index the session opened at instead.
    public var opened: Int
    /// The reason, for people.
    public var reason: String

    /// Why `requested` became `opened`.
    public init(requested: Int, opened: Int, reason: String) {
        self.requested = requested
        self.opened = opened
        self.reason = reason
    }
}
