/// Pixels drawn from a page: `height` rows of `stride` bytes, top row first, each row
/// holding `width` pixels of `format` (RGBA with straight alpha).
public struct Bitmap: Hashable, Sendable {
    /// Pixels in a row.
    public private(set) var width: Int
    /// Rows.
    public private(set) var height: Int
    /// Bytes from the start of one row to the start of the next; at least
    /// `width * format.bytesPerPixel`.
    public private(set) var stride: Int
    /// The channels of each pixel.
    public private(set) var format: PixelFormat
    /// The pixels, row after row.
    public var bytes: [UInt8]

    /// A bitmap with no pixels, to pass to `Document.render(pageAt:options:into:cancellation:)`
    /// the first time.
    public init() {
        self.init(width: 0, height: 0, stride: 0, format: .rgb, bytes: [])
    }

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

    /// Makes this `width` x `height` pixels of `format` in rows without padding, keeping its
    /// storage when it is large enough, and calls `fill` with the bytes to set, all of them.
    /// What `fill` does not set is left as it was.
    package mutating func reshape(
        width: Int, height: Int, format: PixelFormat, fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        let stride = width * format.bytesPerPixel
        let count = stride * height
        if bytes.capacity < count {
            bytes = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        } else if bytes.count > count {
            bytes.removeLast(bytes.count - count)
        } else if bytes.count < count {
            bytes.append(contentsOf: repeatElement(0, count: count - bytes.count))
        }
        (self.width, self.height, self.stride, self.format) = (width, height, stride, format)
        try bytes.withUnsafeMutableBufferPointer { try fill($0) }
    }
}
