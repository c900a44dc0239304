/// A rectangle of whole pixels in the device space of a render: the page's top-left corner
/// is pixel (0, 0).
public struct PixelRect: Hashable, Sendable, Codable {
    /// The left edge, in device pixels.
    public var x: Int
    /// The top edge, in device pixels.
    public var y: Int
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// A rectangle of pixels.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The pixels that `rect` (in points) touches at `scale` pixels per point, rounded
    /// outwards as MuPDF and pdftocairo round: an edge within 0.001 pixel of a whole
    /// number stays on it, so 792 pt at 150 dpi is 1650 rows, not 1651. `nil` when an edge
    /// is not a finite number within the 32-bit range the engines' pixel coordinates use.
    public init?(covering rect: PageRect, scale: Double) {
        let limit = Double(Int32.max)
        let edges = [
            (rect.minX * scale + 0.001).rounded(.down), (rect.minY * scale + 0.001).rounded(.down),
            (rect.maxX * scale - 0.001).rounded(.up), (rect.maxY * scale - 0.001).rounded(.up),
        ]
        guard edges.allSatisfy({ $0.isFinite && abs($0) <= limit }) else { return nil }
        let (x0, y0, x1, y1) = (Int(edges[0]), Int(edges[1]), Int(edges[2]), Int(edges[3]))
        self.init(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// `width * height`.
    public var pixelCount: Int { width * height }
}
