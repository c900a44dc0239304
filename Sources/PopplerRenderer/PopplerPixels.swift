import CPopplerGlib
import EngineSupport
import RendererEngine

/// Conversions between cairo's image surfaces (native-endian 32-bit pixels: bytes B, G, R, A
/// in memory, premultiplied) and the API's `Bitmap` formats.
enum PopplerPixels {
    /// Copies the pixels of an ARGB32 surface, flushed, into `pixels` as rows of `format`
    /// without padding; RGBA with straight alpha.
    static func copy(fromARGB surface: OpaquePointer, into pixels: UnsafeMutableBufferPointer<UInt8>, format: PixelFormat) {
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let sourceStride = Int(cairo_image_surface_get_stride(surface))
        let source = UnsafePointer(cairo_image_surface_get_data(surface)!)
        let stride = width * format.bytesPerPixel
        precondition(pixels.count >= stride * height, "too few bytes for the surface's pixels")
        let target = pixels.baseAddress!
        for y in 0..<height {
            let s = source + y * sourceStride
            let d = target + y * stride
            switch format {
            case .rgb:
                for x in 0..<width {
                    d[3 * x] = s[4 * x + 2]; d[3 * x + 1] = s[4 * x + 1]; d[3 * x + 2] = s[4 * x]
                }
            case .rgba:
                for x in 0..<width {
                    d[4 * x] = s[4 * x + 2]; d[4 * x + 1] = s[4 * x + 1]; d[4 * x + 2] = s[4 * x]; d[4 * x + 3] = s[4 * x + 3]
                }
            case .gray:
                for x in 0..<width {
                    d[x] = Bitmap.luminance(red: s[4 * x + 2], green: s[4 * x + 1], blue: s[4 * x])
                }
            }
        }
        if format == .rgba {
            Bitmap.unpremultiplyRGBA(pixels, width: width, height: height, stride: stride)
        }
    }
}
