/// Converts between PDF user space (y up, the coordinates written in the file and in XFDF)
/// and page space (y down from the top-left corner of the page as displayed) for a page
/// with a given crop box and rotation.
public struct PageSpace: Hashable, Sendable, Codable {
    /// The crop box in user space: lower-left and upper-right corners.
    public var cropBox: UserRect
    /// How the page is turned for display (its `/Rotate`).
    public var rotation: PageRotation

    /// The page space of a page with this crop box and rotation.
    public init(cropBox: UserRect, rotation: PageRotation) {
        self.cropBox = cropBox
        self.rotation = rotation
    }

    /// The page-space point for a user-space point.
    public func point(x: Double, y: Double) -> PagePoint {
        let width = cropBox.x1 - cropBox.x0, height = cropBox.y1 - cropBox.y0
        // Unrotated page space first, then turned clockwise as the page is displayed.
        let px = x - cropBox.x0, py = cropBox.y1 - y
        switch rotation {
        case .none: return PagePoint(x: px, y: py)
        case .quarter: return PagePoint(x: height - py, y: px)
        case .half: return PagePoint(x: width - px, y: height - py)
        case .threeQuarters: return PagePoint(x: py, y: width - px)
        }
    }

    /// The user-space point for a page-space point: the inverse of ``point(x:y:)``.
    public func userPoint(_ point: PagePoint) -> (x: Double, y: Double) {
        let width = cropBox.x1 - cropBox.x0, height = cropBox.y1 - cropBox.y0
        let px: Double, py: Double
        switch rotation {
        case .none: (px, py) = (point.x, point.y)
        case .quarter: (px, py) = (point.y, height - point.x)
        case .half: (px, py) = (width - point.x, height - point.y)
        case .threeQuarters: (px, py) = (width - point.y, point.x)
        }
        return (px + cropBox.x0, cropBox.y1 - py)
    }

    /// The page-space rectangle covering a user-space rectangle.
    public func rect(_ user: UserRect) -> PageRect {
        let a = point(x: user.x0, y: user.y0), b = point(x: user.x1, y: user.y1)
        return PageRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }

    /// The user-space rectangle covering a page-space rectangle.
    public func userRect(_ rect: PageRect) -> UserRect {
        let a = userPoint(rect.origin), b = userPoint(PagePoint(x: rect.maxX, y: rect.maxY))
        return UserRect(x0: min(a.x, b.x), y0: min(a.y, b.y), x1: max(a.x, b.x), y1: max(a.y, b.y))
    }
}

/// A rectangle in PDF user space, by its lower-left (`x0`, `y0`) and upper-right corners.
public struct UserRect: Hashable, Sendable, Codable {
    /// The left edge, in points of user space.
    public var x0: Double
    /// The bottom edge (user space grows upwards).
    public var y0: Double
    /// The right edge.
    public var x1: Double
    /// The top edge.
    public var y1: Double

    /// A rectangle from its lower-left and upper-right corners.
    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
}
