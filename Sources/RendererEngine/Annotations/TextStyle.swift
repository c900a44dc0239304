/// How a free text annotation's text is set (its default appearance, `/DA`, and its
/// quadding, `/Q`): the font family, its size, the text's colour and its alignment.
public struct TextStyle: Hashable, Sendable, Codable {
    /// The font family.
    public var fontFamily: FontFamily
    /// The font size in points (more than 0, at most 1,000).
    public var fontSize: Double
    /// The text's colour.
    public var color: Color
    /// How the lines align in the annotation's rectangle.
    public var alignment: TextAlignment

    /// A style with the given values; by default Helvetica, 12 points, black, left aligned.
    public init(fontFamily: FontFamily = .helvetica, fontSize: Double = 12, color: Color = Color(red: 0, green: 0, blue: 0), alignment: TextAlignment = .left) {
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.color = color
        self.alignment = alignment
    }

    /// The style a default appearance string (`/DA`, as `/Helv 12 Tf 0 0 1 rg`) sets: the
    /// last font and size (`/Name size Tf`) and fill colour (`g`, `rg` or `k`) in it, left
    /// aligned; black when it sets no colour. Nil when it sets no font.
    package init?(defaultAppearance: String) {
        let tokens = defaultAppearance.split(whereSeparator: \.isWhitespace)
        var font: (name: Substring, size: Double)?
        var color = Color(red: 0, green: 0, blue: 0)
        for (index, token) in tokens.enumerated() {
            let operands = tokens[..<index].suffix(4).compactMap { Double($0) }
            switch token {
            case "Tf" where index >= 2 && tokens[index - 2].hasPrefix("/"):
                guard let size = Double(tokens[index - 1]) else { continue }
                font = (tokens[index - 2].dropFirst(), size)
            case "g" where operands.count >= 1:
                color = Color(red: operands.last!, green: operands.last!, blue: operands.last!)
            case "rg" where operands.count >= 3:
                let c = Array(operands.suffix(3))
                color = Color(red: c[0], green: c[1], blue: c[2])
            case "k" where operands.count >= 4:
                color = Color(pdfComponents: Array(operands.suffix(4))) ?? color
            default: continue
            }
        }
        guard let font else { return nil }
        self.init(fontFamily: FontFamily(resourceName: String(font.name)), fontSize: font.size, color: color)
    }
}

/// A font family of a free text annotation: one of the three every PDF reader has (the
/// standard 14 fonts' Helvetica, Times and Courier), or the resource name another program
/// wrote, kept as it is.
public struct FontFamily: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The family's name: `Helvetica`, `Times`, `Courier`, or the font resource's name.
    public var rawValue: String

    /// The family named `rawValue`: `Helvetica`, `Times`, `Courier`, or another font's name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Helvetica (sans serif); `/Helv` in the default appearance.
    public static let helvetica = FontFamily(rawValue: "Helvetica")
    /// Times (serif); `/TiRo`.
    public static let times = FontFamily(rawValue: "Times")
    /// Courier (monospaced); `/Cour`.
    public static let courier = FontFamily(rawValue: "Courier")

    /// The families every reader draws.
    public static let standard: [FontFamily] = [.helvetica, .times, .courier]

    /// The font's resource name in a default appearance string.
    public var resourceName: String {
        switch self {
        case .helvetica: "Helv"
        case .times: "TiRo"
        case .courier: "Cour"
        default: rawValue
        }
    }

    /// The family a default appearance's font resource name stands for.
    public init(resourceName: String) {
        self = Self.standard.first { $0.resourceName == resourceName } ?? FontFamily(rawValue: resourceName)
    }

    /// The family's name.
    public var description: String { rawValue }

    /// Decodes the family from its name, a JSON string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the family as its name, a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// How the lines of a free text annotation align (its quadding, `/Q`).
public enum TextAlignment: String, Hashable, Sendable, Codable, CaseIterable {
    /// Lines start at the left edge.
    case left
    /// Lines are centred.
    case center
    /// Lines end at the right edge.
    case right

    /// The `/Q` value: 0 left, 1 centred, 2 right.
    public var quadding: Int {
        switch self {
        case .left: 0
        case .center: 1
        case .right: 2
        }
    }

    /// The alignment a `/Q` value gives; left for any other.
    public init(quadding: Int) {
        self = quadding == 1 ? .center : quadding == 2 ? .right : .left
    }
}
