/// Bitmaps of any pixel format made comparable.
extension Bitmap {
    /// The bitmap as opaque RGB: gray spread to three channels, alpha composited over white;
    /// an RGB bitmap as it is.
    public func opaqueRGB() -> Bitmap {
        guard format != .rgb else { return self }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let source = y * stride + x * format.bytesPerPixel, target = (y * width + x) * 3
                switch format {
                case .gray:
                    (rgb[target], rgb[target + 1], rgb[target + 2]) = (bytes[source], bytes[source], bytes[source])
                case .rgba:
                    let alpha = Int(bytes[source + 3])
                    for c in 0..<3 { rgb[target + c] = UInt8((Int(bytes[source + c]) * alpha + 255 * (255 - alpha) + 127) / 255) }
                case .rgb:
                    break
                }
            }
        }
        return Bitmap(width: width, height: height, stride: width * 3, format: .rgb, bytes: rgb)
    }
}
