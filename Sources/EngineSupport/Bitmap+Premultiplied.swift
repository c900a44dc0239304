import RendererEngine

extension Bitmap {
    /// Turns RGBA pixels with premultiplied alpha (as the engines draw them) into straight
    /// alpha, in place: each colour channel becomes `round(c * 255 / alpha)`, and fully
    /// transparent pixels become (0, 0, 0, 0).
    package static func unpremultiplyRGBA(_ buffer: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, stride: Int) {
        for y in 0..<height {
            var i = y * stride
            for _ in 0..<width {
                let alpha = Int(buffer[i + 3])
                if alpha == 0 {
                    buffer[i] = 0
                    buffer[i + 1] = 0
                    buffer[i + 2] = 0
                } else if alpha < 255 {
                    for c in 0..<3 {
                        buffer[i + c] = UInt8(min(255, (Int(buffer[i + c]) * 255 + alpha / 2) / alpha))
                    }
                }
                i += 4
            }
        }
    }

    /// The luminance of an RGB colour as the engines compute it for gray output:
    /// 0.30 R + 0.59 G + 0.11 B, rounded.
    package static func luminance(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let weighted: Int = 30 * Int(red) + 59 * Int(green) + 11 * Int(blue)
        return UInt8((weighted + 50) / 100)
    }
}

extension Bitmap {
    /// Turns RGBA pixels with straight alpha into premultiplied alpha, in place: each colour
    /// channel becomes `round(c * alpha / 255)`.
    package static func premultiplyRGBA(_ bytes: inout [UInt8], width: Int, height: Int, stride: Int) {
        bytes.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                var i = y * stride
                for _ in 0..<width {
                    let alpha = Int(buffer[i + 3])
                    if alpha < 255 {
                        for c in 0..<3 { buffer[i + c] = UInt8((Int(buffer[i + c]) * alpha + 127) / 255) }
                    }
                    i += 4
                }
            }
        }
    }
}
