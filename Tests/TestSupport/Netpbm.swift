import Foundation

/// The pixels of a binary PGM (P5), PPM (P6) or PAM (P7) file with 8-bit samples, as the
/// reference tools and netpbm's converters write them.
public struct Netpbm: Equatable {
    public var width: Int
    public var height: Int
    public var channels: Int
    public var pixels: [UInt8]

    public init(_ data: Data) throws {
        var index = data.startIndex
        func nextToken() -> String {
            var token = ""
            while index < data.endIndex {
                let byte = data[index]
                if byte == UInt8(ascii: "#") {
                    while index < data.endIndex, data[index] != 10 { index += 1 }
                } else if byte == 32 || byte == 10 || byte == 13 || byte == 9 {
                    index += 1
                    if !token.isEmpty { return token }
                    continue
                } else {
                    token.append(Character(UnicodeScalar(byte)))
                    index += 1
                    continue
                }
            }
            return token
        }
        let magic = nextToken()
        switch magic {
        case "P5", "P6":
            width = Int(nextToken()) ?? -1
            height = Int(nextToken()) ?? -1
            _ = nextToken()
            channels = magic == "P5" ? 1 : 3
        case "P7":
            var fields: [String: String] = [:]
            while true {
                let key = nextToken()
                if key == "ENDHDR" || key.isEmpty { break }
                fields[key] = nextToken()
            }
            width = Int(fields["WIDTH"] ?? "") ?? -1
            height = Int(fields["HEIGHT"] ?? "") ?? -1
            channels = Int(fields["DEPTH"] ?? "") ?? -1
        default:
            throw NetpbmError(message: "not a binary Netpbm file (magic \(magic))")
        }
        let count = width * height * channels
        guard width > 0, height > 0, channels > 0, data.endIndex - index >= count else {
            throw NetpbmError(message: "bad Netpbm header or short data")
        }
        pixels = [UInt8](data[index..<index + count])
    }
}

public struct NetpbmError: Error {
    public var message: String
}

extension Netpbm {
    /// The image widened and heightened to `width` by `height` with white (255) on the right
    /// and at the bottom: for Ghostscript's page images, which drop a last part-pixel the
    /// provider rounds up to a whole one of background. Nil when the image would have to
    /// grow by more than that one pixel, or shrink.
    public func padded(toWidth width: Int, height: Int) -> Netpbm? {
        guard (0...1).contains(width - self.width), (0...1).contains(height - self.height) else { return nil }
        var result = self
        result.width = width
        result.height = height
        result.pixels = []
        result.pixels.reserveCapacity(width * height * channels)
        for y in 0..<height {
            if y < self.height {
                result.pixels += pixels[(y * self.width * channels)..<((y + 1) * self.width * channels)]
                result.pixels += [UInt8](repeating: 255, count: (width - self.width) * channels)
            } else {
                result.pixels += [UInt8](repeating: 255, count: width * channels)
            }
        }
        return result
    }

    /// The colour channels (gray, or red, green and blue) of the pixel at (`x`, `y`).
    public func color(x: Int, y: Int) -> [UInt8] {
        let start = (y * width + x) * channels
        return Array(pixels[start..<(start + (channels <= 2 ? 1 : 3))])
    }

    /// The same pixels with `count` channels (1 gray, 2 gray and alpha, 3 RGB, 4 RGBA): gray
    /// copied into red, green and blue, alpha added as opaque or dropped; to compare a PNG
    /// decoder's output (`pngtopam -alphapam` always adds alpha) with the bitmap drawn.
    public func converted(toChannels count: Int) -> Netpbm {
        guard count != channels else { return self }
        let hasAlpha = channels == 2 || channels == 4
        let colors = channels <= 2 ? 1 : 3
        var result = self
        result.channels = count
        result.pixels = []
        result.pixels.reserveCapacity(width * height * count)
        var index = 0
        for _ in 0..<(width * height) {
            let color = Array(pixels[index..<index + colors])
            let alpha = hasAlpha ? pixels[index + colors] : 255
            index += channels
            switch count {
            case 1: result.pixels.append(color[0])
            case 2: result.pixels += [color[0], alpha]
            case 3: result.pixels += colors == 1 ? [color[0], color[0], color[0]] : color
            default: result.pixels += (colors == 1 ? [color[0], color[0], color[0]] : color) + [alpha]
            }
        }
        return result
    }
}
