/// How a ``Bitmap`` stores its pixels: 8 bits a channel, rows top to bottom.
public enum PixelFormat: String, Sendable, Codable, CaseIterable {
    /// Red, green, blue; 3 bytes a pixel.
    case rgb
    /// Red, green, blue and straight (not premultiplied) alpha; 4 bytes a pixel.
    case rgba
    /// One luminance byte a pixel.
    case gray

    /// Bytes per pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .rgb: 3
        case .rgba: 4
        case .gray: 1
        }
    }
}
