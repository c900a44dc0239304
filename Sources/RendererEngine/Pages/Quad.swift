/// A quadrilateral in page space, as PDF text markup uses: the corners at the start and end
/// of the text's top edge, then of its bottom edge (for unrotated text: upper-left,
/// upper-right, lower-left, lower-right).
public struct Quad: Hashable, Sendable, Codable {
    /// The start of the text's top edge.
    public var upperLeft: PagePoint
    /// The end of the text's top edge.
    public var upperRight: PagePoint
    /// The start of the text's bottom edge.
    public var lowerLeft: PagePoint
    /// The end of the text's bottom edge.
    public var lowerRight: PagePoint

    /// A quadrilateral from its four corners.
    public init(upperLeft: PagePoint, upperRight: PagePoint, lowerLeft: PagePoint, lowerRight: PagePoint) {
        self.upperLeft = upperLeft
        self.upperRight = upperRight
        self.lowerLeft = lowerLeft
        self.lowerRight = lowerRight
    }

    /// The quad of an axis-aligned rectangle.
    public init(_ rect: PageRect) {
        self.init(
            upperLeft: PagePoint(x: rect.minX, y: rect.minY), upperRight: PagePoint(x: rect.maxX, y: rect.minY),
            lowerLeft: PagePoint(x: rect.minX, y: rect.maxY), lowerRight: PagePoint(x: rect.maxX, y: rect.maxY))
    }

    /// The smallest axis-aligned rectangle holding the four corners.
    public var bounds: PageRect {
        let x0 = min(min(upperLeft.x, upperRight.x), min(lowerLeft.x, lowerRight.x))
        let y0 = min(min(upperLeft.y, upperRight.y), min(lowerLeft.y, lowerRight.y))
        let x1 = max(max(upperLeft.x, upperRight.x), max(lowerLeft.x, lowerRight.x))
        let y1 = max(max(upperLeft.y, upperRight.y), max(lowerLeft.y, lowerRight.y))
        return PageRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension PageRect {
    /// The smallest rectangle holding both.
    public func union(_ other: PageRect) -> PageRect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return PageRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The smallest rectangle holding all of `rects`; a zero rectangle at the origin for none.
    public static func enclosing(_ rects: [PageRect]) -> PageRect {
        guard let first = rects.first else { return PageRect(x: 0, y: 0, width: 0, height: 0) }
        return rects.dropFirst().reduce(first) { $0.union($1) }
    }

    /// True when the point lies inside or on the edge.
    public func contains(_ point: PagePoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// The point in the middle.
    public var center: PagePoint { PagePoint(x: minX + size.width / 2, y: minY + size.height / 2) }
}
