/// A size in whole pixels, such as the box ``RenderOptions/fitting`` draws a page into.
public struct PixelSize: Hashable, Sendable, Codable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
