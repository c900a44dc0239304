import EngineSupport
import RendererEngine

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

    /// Turns the RGBA pixels MuPDF drew into `pixels` (premultiplied) into straight alpha with
    /// MuPDF's own rounding, that of its PNG and PAM writers (`mutool draw -c rgba`): each
    /// colour becomes `(c x (255 x 256 / alpha) + 128) >> 8`, the division truncated, and
    /// fully transparent pixels (0, 0, 0, 0). It differs from exact rounding by one level in
    /// about 0.4% of partly transparent pixels; with it, the pixels equal mutool's.
    static func straightenAlpha(_ pixels: UnsafeMutableBufferPointer<UInt8>, area: PixelRect) {
        for y in 0..<area.height {
            var i = y * area.width * 4
            for _ in 0..<area.width {
                let alpha = Int(pixels[i + 3])
                if alpha == 0 {
                    pixels[i] = 0
                    pixels[i + 1] = 0
                    pixels[i + 2] = 0
                } else if alpha < 255 {
                    let inverse = 255 * 256 / alpha
                    for c in 0..<3 {
                        pixels[i + c] = UInt8(min(255, (Int(pixels[i + c]) * inverse + 128) >> 8))
                    }
                }
                i += 4
            }
        }
    }
}
