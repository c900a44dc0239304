/// A size in whole pixels, such as the box ``RenderOptions/fitting`` draws a page into.
public struct PixelSize: Hashable, Sendable, Codable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// A size of `width` x `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
