/// What pages draw with paths, as layout analysis reads it: the lines across and down that
/// rule tables (``PageRule``), and the other shapes, of which charts and diagrams are made
/// (``PageShape``). Text and images are not in it.
public struct PageDrawing: Hashable, Sendable, Codable {
    /// The rules, page after page, in the order drawn.
    public var rules: [PageRule]
    /// The other shapes, page after page, in the order drawn.
    public var shapes: [PageShape]

    /// A drawing of `rules` and `shapes`.
    public init(rules: [PageRule] = [], shapes: [PageShape] = []) {
        self.rules = rules
        self.shapes = shapes
    }
}

/// A shape a page paints with a path that is no rule (``PageRule``): a filled area (a bar, a
/// slice, a box), or a stroked curve or slanting line. Charts and diagrams are made of them.
public struct PageShape: Hashable, Sendable, Codable {
    /// The page's index, from 0.
    public var pageIndex: Int
    /// The bounds of the path's points (a curve's control points included), in page space
    /// (points from the top-left corner of the page as displayed).
    public var bounds: PageRect
    /// True for an upright rectangle, filled: a bar of a chart, or the background of what is
    /// drawn over it.
    public var isRectangle: Bool

    /// A shape on page `pageIndex` over `bounds`.
    public init(pageIndex: Int, bounds: PageRect, isRectangle: Bool) {
        self.pageIndex = pageIndex
        self.bounds = bounds
        self.isRectangle = isRectangle
    }
}
