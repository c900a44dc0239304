/// A bitmap drawn for a dark screen.
extension Bitmap {
    /// Inverts every pixel's lightness and keeps its hue and saturation (HSL): each colour
    /// channel `c` becomes `c + 255 - max - min` of its pixel's channels, which maps the
    /// lightness `L` to `1 - L` and keeps the differences between channels. White becomes
    /// black, black white, a mid-light red stays that red. Gray pixels become `255 - c`;
    /// alpha is kept.
    public mutating func invertLightness() {
        let (width, height, stride, format) = (self.width, self.height, self.stride, self.format)
        bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                var i = y * stride
                for _ in 0..<width {
                    switch format {
                    case .gray:
                        pixels[i] = 255 - pixels[i]
                    case .rgb, .rgba:
                        let (r, g, b) = (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
                        let shift = 255 - max(r, g, b) - min(r, g, b)
                        pixels[i] = UInt8(r + shift)
                        pixels[i + 1] = UInt8(g + shift)
                        pixels[i + 2] = UInt8(b + shift)
                    }
                    i += format.bytesPerPixel
                }
            }
        }
    }
}
