/// A colour with straight (not premultiplied) alpha; each component from 0 to 1.
public struct Color: Hashable, Sendable, Codable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let transparent = Color(red: 1, green: 1, blue: 1, alpha: 0)

    /// The components as bytes (0...255, rounded), in the order red, green, blue, alpha.
    public var bytes: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        return (byte(red), byte(green), byte(blue), byte(alpha))
    }
}
