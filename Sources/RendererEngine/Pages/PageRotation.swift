/// How a page is turned for display, clockwise, as the PDF's `/Rotate` says.
public enum PageRotation: Int, Sendable, Codable, CaseIterable {
    /// Upright.
    case none = 0
    /// Turned 90 degrees clockwise.
    case quarter = 90
    /// Turned 180 degrees.
    case half = 180
    /// Turned 270 degrees clockwise.
    case threeQuarters = 270

    /// The rotation for a `/Rotate` value in degrees: any multiple of 90, negative ones
    /// included, as PDF readers accept them; `nil` for anything else.
    public init?(degrees: Int) {
        guard degrees % 90 == 0 else { return nil }
        self.init(rawValue: ((degrees % 360) + 360) % 360)
    }

    /// The rotation in degrees: 0, 90, 180 or 270.
    public var degrees: Int { rawValue }
}
