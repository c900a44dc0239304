/// A colour with straight (not premultiplied) alpha; each component from 0 to 1.
public struct Color: Hashable, Sendable, Codable {
    /// The red component, 0 to 1.
    public var red: Double
    /// The green component, 0 to 1.
    public var green: Double
    /// The blue component, 0 to 1.
    public var blue: Double
    /// The opacity, 0 (transparent) to 1 (opaque).
    public var alpha: Double

    /// A colour from its components, each 0 to 1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    private enum CodingKeys: String, CodingKey {
        case red, green, blue, alpha
    }

    /// Reads `red`, `green` and `blue`, and `alpha` when given (opaque when not).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            red: try container.decode(Double.self, forKey: .red), green: try container.decode(Double.self, forKey: .green),
            blue: try container.decode(Double.self, forKey: .blue), alpha: try container.decodeIfPresent(Double.self, forKey: .alpha) ?? 1)
    }

    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Fully transparent (white, were it shown).
    public static let transparent = Color(red: 1, green: 1, blue: 1, alpha: 0)

    /// The components as bytes (0...255, rounded), in the order red, green, blue, alpha.
    public var bytes: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        return (byte(red), byte(green), byte(blue), byte(alpha))
    }

    /// The colour of a `#RRGGBB` string (the `#` may be left out), opaque; nil for anything else.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = Int(digits, radix: 16) else { return nil }
        self.init(red: Double(value >> 16 & 0xFF) / 255, green: Double(value >> 8 & 0xFF) / 255, blue: Double(value & 0xFF) / 255)
    }

    /// The colour of a PDF colour array of 1 (gray), 3 (RGB) or 4 (CMYK, converted
    /// naively) components; nil for any other count, such as 0 (no colour).
    public init?(pdfComponents c: [Double]) {
        switch c.count {
        case 1: self.init(red: c[0], green: c[0], blue: c[0])
        case 3: self.init(red: c[0], green: c[1], blue: c[2])
        case 4: self.init(red: (1 - c[0]) * (1 - c[3]), green: (1 - c[1]) * (1 - c[3]), blue: (1 - c[2]) * (1 - c[3]))
        default: return nil
        }
    }

    /// The colour as `#RRGGBB`, each component rounded to a byte; alpha left out.
    public var hexString: String {
        let (r, g, b, _) = bytes
        return "#" + [r, g, b].map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }
}
