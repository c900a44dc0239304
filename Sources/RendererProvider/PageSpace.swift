/// Converts PDF user space (y up, the coordinates written in the file) into page space
/// (y down from the top-left corner of the page as displayed), for a page with a given crop
/// box and rotation. For backends whose engine reports user-space coordinates.
package struct PageSpace: Sendable {
    /// The crop box in user space: lower-left and upper-right corners.
    package var cropBox: (x0: Double, y0: Double, x1: Double, y1: Double)
    package var rotation: PageRotation

    package init(cropBox: (x0: Double, y0: Double, x1: Double, y1: Double), rotation: PageRotation) {
        self.cropBox = cropBox
        self.rotation = rotation
    }

    /// The page-space point for a user-space point.
    package func point(x: Double, y: Double) -> PagePoint {
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

    /// The page-space rectangle covering a user-space rectangle.
    package func rect(x0: Double, y0: Double, x1: Double, y1: Double) -> PageRect {
        let a = point(x: x0, y: y0), b = point(x: x1, y: y1)
        return PageRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }
}
