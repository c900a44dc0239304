/// What an annotation is, named by its PDF subtype (`/Subtype`), such as `Highlight`.
///
/// The kinds an application can create are listed as constants and in ``creatable``; any
/// other subtype found in a file (`Popup`, `FileAttachment`, `Caret`, `Redact`, `Widget`,
/// and others) is listed read-only under its own name.
public struct AnnotationKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The PDF subtype name, without the slash.
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A note, shown as an icon.
    public static let text = AnnotationKind(rawValue: "Text")
    /// Text written on the page.
    public static let freeText = AnnotationKind(rawValue: "FreeText")
    /// Text marked with a colour behind it.
    public static let highlight = AnnotationKind(rawValue: "Highlight")
    /// Text underlined.
    public static let underline = AnnotationKind(rawValue: "Underline")
    /// Text struck out.
    public static let strikeOut = AnnotationKind(rawValue: "StrikeOut")
    /// Text underlined with a wavy line.
    public static let squiggly = AnnotationKind(rawValue: "Squiggly")
    /// Freehand strokes.
    public static let ink = AnnotationKind(rawValue: "Ink")
    /// A rectangle.
    public static let square = AnnotationKind(rawValue: "Square")
    /// An ellipse within the rectangle.
    public static let circle = AnnotationKind(rawValue: "Circle")
    /// A straight line between two points.
    public static let line = AnnotationKind(rawValue: "Line")
    /// A closed shape through its vertices.
    public static let polygon = AnnotationKind(rawValue: "Polygon")
    /// An open line through its vertices.
    public static let polyLine = AnnotationKind(rawValue: "PolyLine")
    /// A rubber stamp.
    public static let stamp = AnnotationKind(rawValue: "Stamp")
    /// An area marked for redaction. Not made by `Document.addAnnotation(_:)`: see
    /// `Document.markRedaction(_:onPageAt:)`.
    public static let redact = AnnotationKind(rawValue: "Redact")

    /// The kinds the API can create, in the order of ISO 32000-1's table of annotation types.
    public static let creatable: [AnnotationKind] = [
        .text, .freeText, .line, .square, .circle, .polygon, .polyLine,
        .highlight, .underline, .squiggly, .strikeOut, .stamp, .ink,
    ]

    /// True for the kinds an application can create.
    public var isCreatable: Bool { Self.creatable.contains(self) }

    /// True for text markup, whose geometry is its ``Annotation/quads``.
    public var isTextMarkup: Bool { [.highlight, .underline, .strikeOut, .squiggly].contains(self) }

    /// True for the kinds whose geometry is ``Annotation/points``: a line's two end points, or
    /// the vertices of a polygon or polyline.
    public var hasPoints: Bool { [.line, .polygon, .polyLine].contains(self) }

    /// True for the kinds drawn from quads, ink paths or points: the engine sets their
    /// rectangle to the bounds of what is drawn.
    public var hasDerivedRect: Bool { isTextMarkup || hasPoints || self == .ink }

    /// The kind for a name in any letter case (`highlight`, `StrikeOut`, `polyline`); a
    /// name that is not a creatable kind keeps its spelling.
    public init(name: String) {
        self = Self.creatable.first { $0.rawValue.lowercased() == name.lowercased() } ?? AnnotationKind(rawValue: name)
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
