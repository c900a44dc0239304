/// A straight line a page draws across or down itself: a stroked horizontal or vertical
/// segment, or a filled rectangle thin enough to be one. Tables rule their cells with them,
/// so layout analysis reads a ruled table's rows and columns from its rules.
public struct PageRule: Hashable, Sendable, Codable {
    /// The page's index, from 0.
    public var pageIndex: Int
    /// Where the line is drawn, in page space (points from the top-left corner of the page as
    /// displayed), as thick as it is drawn.
    public var bounds: PageRect

    /// The thickest a filled rectangle is and still counts as a line, in points.
    public static let thicknessLimit = 3.0

    /// A rule on page `pageIndex` drawn over `bounds`.
    public init(pageIndex: Int, bounds: PageRect) {
        self.pageIndex = pageIndex
        self.bounds = bounds
    }

    /// True for a line across the page, false for one down it.
    public var isHorizontal: Bool { bounds.size.width >= bounds.size.height }
}
