import CPopplerGlib
import EngineSupport
import RendererProvider

/// Conversions between cairo's image surfaces (native-endian 32-bit pixels: bytes B, G, R, A
/// in memory, premultiplied) and the API's `Bitmap` formats.
enum PopplerPixels {
    /// Copies the pixels of an ARGB32 surface, flushed, into `pixels` as rows of `format`
    /// without padding; RGBA with straight alpha unless `premultiplied`.
    static func copy(fromARGB surface: OpaquePointer, into pixels: UnsafeMutableBufferPointer<UInt8>, format: PixelFormat, premultiplied: Bool) {
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
        if format == .rgba && !premultiplied {
            Bitmap.unpremultiplyRGBA(pixels, width: width, height: height, stride: stride)
        }
    }

    /// A new cairo surface holding `bitmap`'s pixels, for cairo's PNG writer: gray as A8
    /// (which cairo writes as a gray PNG), RGB as RGB24, RGBA as premultiplied ARGB32
    /// (premultiplied here unless the bitmap already is).
    /// The caller destroys it.
    static func cairoSurface(from bitmap: Bitmap) throws -> OpaquePointer {
        let cairoFormat: cairo_format_t
        switch bitmap.format {
        case .gray: cairoFormat = CAIRO_FORMAT_A8
        case .rgb: cairoFormat = CAIRO_FORMAT_RGB24
        case .rgba: cairoFormat = CAIRO_FORMAT_ARGB32
        }
        let surface = cairo_image_surface_create(cairoFormat, Int32(bitmap.width), Int32(bitmap.height))!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw PopplerErrors.cairoFailure(status, doing: "hold a \(bitmap.width) x \(bitmap.height) bitmap")
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let target = cairo_image_surface_get_data(surface)!
        bitmap.bytes.withUnsafeBufferPointer { buffer in
            for y in 0..<bitmap.height {
                let row = target + y * stride
                let source = buffer.baseAddress! + y * bitmap.stride
                switch bitmap.format {
                case .gray:
                    row.update(from: source, count: bitmap.width)
                case .rgb:
                    for x in 0..<bitmap.width {
                        row[4 * x] = source[3 * x + 2]; row[4 * x + 1] = source[3 * x + 1]; row[4 * x + 2] = source[3 * x]; row[4 * x + 3] = 255
                    }
                case .rgba where bitmap.isPremultiplied:
                    for x in 0..<bitmap.width {
                        row[4 * x] = source[4 * x + 2]; row[4 * x + 1] = source[4 * x + 1]; row[4 * x + 2] = source[4 * x]; row[4 * x + 3] = source[4 * x + 3]
                    }
                case .rgba:
                    for x in 0..<bitmap.width {
                        let alpha = Int(source[4 * x + 3])
                        for c in 0..<3 { row[4 * x + 2 - c] = UInt8((Int(source[4 * x + c]) * alpha + 127) / 255) }
                        row[4 * x + 3] = UInt8(alpha)
                    }
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
