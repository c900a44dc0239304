/// Pixels drawn from a page: `height` rows of `stride` bytes, top row first, each row
/// holding `width` pixels of `format` (RGBA with straight alpha).
public struct Bitmap: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// Bytes from the start of one row to the start of the next; at least
    /// `width * format.bytesPerPixel`.
    public let stride: Int
    public let format: PixelFormat
    public var bytes: [UInt8]

    /// A bitmap over `bytes`, which must hold `height` rows of `stride` bytes.
    public init(width: Int, height: Int, stride: Int, format: PixelFormat, bytes: [UInt8]) {
        precondition(width >= 0 && height >= 0 && stride >= width * format.bytesPerPixel)
        precondition(bytes.count >= stride * height, "bitmap bytes shorter than its rows")
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.bytes = bytes
    }

    /// The channels of the pixel at column `x`, row `y`: 3 values for RGB, 4 for RGBA, 1 for gray.
    public func pixel(x: Int, y: Int) -> [UInt8] {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "pixel outside the bitmap")
        let start = y * stride + x * format.bytesPerPixel
        return Array(bytes[start..<start + format.bytesPerPixel])
    }

    /// The bytes of row `y` without any padding at its end.
    public func row(_ y: Int) -> ArraySlice<UInt8> {
        let start = y * stride
        return bytes[start..<start + width * format.bytesPerPixel]
    }
}
