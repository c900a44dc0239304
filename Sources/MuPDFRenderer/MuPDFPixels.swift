import EngineSupport
import RendererProvider

/// Conversions between MuPDF's pixmaps (RGB or gray without alpha, or RGBA with
/// premultiplied alpha) and the API's `Bitmap` formats.
enum MuPDFPixels {
    /// The background as MuPDF pixel bytes: gray as luminance, RGBA premultiplied.
    static func background(_ color: Color, format: PixelFormat) -> [UInt8] {
        let (r, g, b, a) = color.bytes
        switch format {
        case .gray: return [Bitmap.luminance(red: r, green: g, blue: b)]
        case .rgb: return [r, g, b]
        case .rgba:
            var pixel = [r, g, b, a]
            Bitmap.premultiplyRGBA(&pixel, width: 1, height: 1, stride: 4)
            return pixel
        }
    }

    /// Turns the RGBA pixels MuPDF drew into `pixels` (premultiplied) into straight alpha.
    static func straightenAlpha(_ pixels: UnsafeMutableBufferPointer<UInt8>, area: PixelRect) {
        Bitmap.unpremultiplyRGBA(pixels, width: area.width, height: area.height, stride: area.width * 4)
    }

    /// Calls `body` with the bitmap's pixels as MuPDF's encoder takes them: RGBA premultiplied
    /// (in a copy, unless they are premultiplied already), anything else as it is.
    static func withEncoderPixels<T>(of bitmap: Bitmap, _ body: (UnsafePointer<UInt8>?) -> T) -> T {
        guard bitmap.format == .rgba, !bitmap.isPremultiplied else { return bitmap.bytes.withUnsafeBufferPointer { body($0.baseAddress) } }
        var pixels = bitmap.bytes
        Bitmap.premultiplyRGBA(&pixels, width: bitmap.width, height: bitmap.height, stride: bitmap.stride)
        return pixels.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
