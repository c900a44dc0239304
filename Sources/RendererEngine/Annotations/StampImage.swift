#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The picture of an image stamp (`Document.addImageStamp(_:image:)`): 8-bit RGB pixels
/// with, where the picture has transparency, an 8-bit alpha plane. Made from a JPEG or PNG
/// file's bytes (a photo, a scanned signature), decoded by the provider itself (libjpeg and
/// libpng), so that every engine is given the same pixels.
public struct StampImage: Hashable, Sendable, Codable {
    /// The largest file read, in bytes.
    public static let maximumFileSize = 64 << 20
    /// The largest width or height, in pixels.
    public static let maximumSide = 12_000
    /// The most pixels an image may have.
    public static let maximumPixelCount = 50_000_000

    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The colour: red, green and blue bytes for each pixel, rows packed, top row first.
    public let rgb: Data
    /// The opacity of each pixel (0 transparent, 255 opaque; not premultiplied), rows as in
    /// ``rgb``; nil when every pixel is opaque.
    public let alpha: Data?

    /// Splits straight RGBA pixels into the colour and, unless all are opaque, the alpha.
    package init(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
        let count = width * height
        var rgb = [UInt8](repeating: 0, count: count * 3)
        var alpha = [UInt8](repeating: 0, count: count)
        var opaque = true
        for pixel in 0..<count {
            rgb[pixel * 3] = rgba[pixel * 4]
            rgb[pixel * 3 + 1] = rgba[pixel * 4 + 1]
            rgb[pixel * 3 + 2] = rgba[pixel * 4 + 2]
            alpha[pixel] = rgba[pixel * 4 + 3]
            opaque = opaque && alpha[pixel] == 255
        }
        (self.width, self.height, self.rgb, self.alpha) = (width, height, Data(rgb), opaque ? nil : Data(alpha))
    }

    private enum CodingKeys: String, CodingKey {
        case width, height, rgb, alpha
    }

    /// Decodes an image and checks that its planes hold exactly its pixels, within the limits.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        (width, height) = (try c.decode(Int.self, forKey: .width), try c.decode(Int.self, forKey: .height))
        (rgb, alpha) = (try c.decode(Data.self, forKey: .rgb), try c.decodeIfPresent(Data.self, forKey: .alpha))
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height), width * height <= Self.maximumPixelCount,
            rgb.count == width * height * 3, alpha.map({ $0.count == width * height }) ?? true
        else {
            throw DecodingError.dataCorruptedError(forKey: .rgb, in: c, debugDescription: "the planes do not hold a \(width)x\(height) image")
        }
    }

    /// The image turned back by `rotation`, counterclockwise: drawn upright in the user space
    /// of a page that the document turns by `rotation`, it stands upright on the page as shown.
    package func turnedBack(by rotation: PageRotation) -> StampImage {
        guard rotation != .none else { return self }
        let (w, h) = (width, height)
        let turned = rotation == .half ? (w, h) : (h, w)
        // Where each new pixel (x, y) comes from in this image.
        let source: (Int, Int) -> Int =
            switch rotation {
            case .quarter: { x, y in x * w + (w - 1 - y) }
            case .half: { x, y in (h - 1 - y) * w + (w - 1 - x) }
            default: { x, y in (h - 1 - x) * w + y }
            }
        let (colour, opacities) = ([UInt8](rgb), alpha.map { [UInt8]($0) } ?? [UInt8](repeating: 255, count: w * h))
        var rgba = [UInt8](repeating: 0, count: turned.0 * turned.1 * 4)
        for y in 0..<turned.1 {
            for x in 0..<turned.0 {
                let (from, to) = (source(x, y), (y * turned.0 + x) * 4)
                rgba[to] = colour[from * 3]
                rgba[to + 1] = colour[from * 3 + 1]
                rgba[to + 2] = colour[from * 3 + 2]
                rgba[to + 3] = opacities[from]
            }
        }
        return rgba.withUnsafeBufferPointer { StampImage(rgba: $0, width: turned.0, height: turned.1) }
    }

    /// The image with at most `width` x `height` pixels: itself when it fits, else scaled
    /// down, proportions kept, each new pixel the average of those it covers (colour
    /// weighted by opacity, so that transparent pixels lend an edge no colour).
    public func fitting(width maximumWidth: Int, height maximumHeight: Int) -> StampImage {
        let scale = min(1, Double(max(1, maximumWidth)) / Double(width), Double(max(1, maximumHeight)) / Double(height))
        guard scale < 1 else { return self }
        let (newWidth, newHeight) = (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
        var sums = [Double](repeating: 0, count: newWidth * newHeight * 4)
        var counts = [Double](repeating: 0, count: newWidth * newHeight)
        let opacities = alpha ?? Data(repeating: 255, count: width * height)
        rgb.withUnsafeBytes { rgb in
            opacities.withUnsafeBytes { opacities in
                for y in 0..<height {
                    let row = (y * newHeight / height) * newWidth
                    for x in 0..<width {
                        let source = y * width + x
                        let target = row + x * newWidth / width
                        let opacity = Double(opacities[source])
                        sums[target * 4] += Double(rgb[source * 3]) * opacity
                        sums[target * 4 + 1] += Double(rgb[source * 3 + 1]) * opacity
                        sums[target * 4 + 2] += Double(rgb[source * 3 + 2]) * opacity
                        sums[target * 4 + 3] += opacity
                        counts[target] += 1
                    }
                }
            }
        }
        var rgba = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        for pixel in 0..<(newWidth * newHeight) {
            let opacity = sums[pixel * 4 + 3]
            for channel in 0..<3 where opacity > 0 { rgba[pixel * 4 + channel] = UInt8((sums[pixel * 4 + channel] / opacity).rounded()) }
            rgba[pixel * 4 + 3] = UInt8((opacity / max(1, counts[pixel])).rounded())
        }
        return rgba.withUnsafeBufferPointer { StampImage(rgba: $0, width: newWidth, height: newHeight) }
    }
}
