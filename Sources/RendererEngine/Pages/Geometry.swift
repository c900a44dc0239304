/// A point in page space: PDF points (1/72 inch), origin at the top-left corner of the page
/// as displayed (its rotation applied), x to the right, y down.
public struct PagePoint: Hashable, Sendable, Codable {
    /// Points from the left edge of the page as displayed.
    public var x: Double
    /// Points down from the top edge of the page as displayed.
    public var y: Double

    /// The point `x` points right of and `y` points below the top-left corner.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A size in PDF points.
public struct PageSize: Hashable, Sendable, Codable {
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double

    /// A size of `width` by `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle in page space (see ``PagePoint``), in PDF points.
public struct PageRect: Hashable, Sendable, Codable {
    /// The top-left corner.
    public var origin: PagePoint
    /// The width and height.
    public var size: PageSize

    /// A rectangle from its top-left corner and size.
    public init(origin: PagePoint, size: PageSize) {
        self.origin = origin
        self.size = size
    }

    /// A rectangle from its top-left corner's coordinates and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: PagePoint(x: x, y: y), size: PageSize(width: width, height: height))
    }

    /// The left edge.
    public var minX: Double { origin.x }
    /// The top edge.
    public var minY: Double { origin.y }
    /// The right edge.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge.
    public var maxY: Double { origin.y + size.height }

    /// True when the rectangle encloses no area.
    public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// The part of this rectangle that lies inside `other`; empty when they do not overlap.
    public func intersection(_ other: PageRect) -> PageRect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return PageRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}

extension PageRect {
    /// True when every edge is within `tolerance` points of `other`'s.
    public func isClose(to other: PageRect, within tolerance: Double = 1) -> Bool {
        abs(minX - other.minX) <= tolerance && abs(minY - other.minY) <= tolerance
            && abs(maxX - other.maxX) <= tolerance && abs(maxY - other.maxY) <= tolerance
    }
}
