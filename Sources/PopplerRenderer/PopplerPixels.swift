import CPoppler
import RendererProvider

/// Conversions between cairo's image surfaces (native-endian 32-bit pixels: bytes B, G, R, A
/// in memory, premultiplied) and the API's ``Bitmap`` formats.
enum PopplerPixels {
    /// The pixels of an ARGB32 surface, flushed, as a bitmap of `format`.
    static func bitmap(fromARGB surface: OpaquePointer, format: PixelFormat) -> Bitmap {
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let sourceStride = Int(cairo_image_surface_get_stride(surface))
        let source = UnsafePointer(cairo_image_surface_get_data(surface)!)
        let stride = width * format.bytesPerPixel
        var bytes = [UInt8](unsafeUninitializedCapacity: stride * height) { buffer, count in
            for y in 0..<height {
                var s = source + y * sourceStride
                var d = y * stride
                for _ in 0..<width {
                    switch format {
                    case .rgb:
                        buffer[d] = s[2]; buffer[d + 1] = s[1]; buffer[d + 2] = s[0]
                    case .rgba:
                        buffer[d] = s[2]; buffer[d + 1] = s[1]; buffer[d + 2] = s[0]; buffer[d + 3] = s[3]
                    case .gray:
                        buffer[d] = Bitmap.luminance(red: s[2], green: s[1], blue: s[0])
                    }
                    s += 4
                    d += format.bytesPerPixel
                }
            }
            count = stride * height
        }
        if format == .rgba {
            Bitmap.unpremultiplyRGBA(&bytes, width: width, height: height, stride: stride)
        }
        return Bitmap(width: width, height: height, stride: stride, format: format, bytes: bytes)
    }

    /// A new cairo surface holding `bitmap`'s pixels, for cairo's PNG writer: gray as A8
    /// (which cairo writes as a gray PNG), RGB as RGB24, RGBA as premultiplied ARGB32.
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
        bitmap.bytes.withUnsafeBufferPointer { source in
            for y in 0..<bitmap.height {
                let row = target + y * stride
                var s = y * bitmap.stride
                switch bitmap.format {
                case .gray:
                    row.update(from: source.baseAddress! + s, count: bitmap.width)
                case .rgb, .rgba:
                    for x in 0..<bitmap.width {
                        let alpha = bitmap.format == .rgba ? Int(source[s + 3]) : 255
                        let d = row + x * 4
                        d[0] = UInt8((Int(source[s + 2]) * alpha + 127) / 255)
                        d[1] = UInt8((Int(source[s + 1]) * alpha + 127) / 255)
                        d[2] = UInt8((Int(source[s]) * alpha + 127) / 255)
                        d[3] = UInt8(alpha)
                        s += bitmap.format.bytesPerPixel
                    }
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
