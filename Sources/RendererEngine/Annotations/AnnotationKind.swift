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
    public static let creatable: [AnnotationKind] = AnnotationKindTraits.table.filter(\.traits.isCreatable).map(\.kind)

    /// What this kind is, from ``AnnotationKindTraits/table``; a kind the table does not
    /// list is given by its rectangle and carries none of the optional fields.
    public var traits: AnnotationKindTraits {
        AnnotationKindTraits.byKind[self] ?? AnnotationKindTraits(geometry: .rect)
    }

    /// True for the kinds an application can create.
    public var isCreatable: Bool { traits.isCreatable }

    /// True for text markup, whose geometry is its ``Annotation/quads``.
    public var isTextMarkup: Bool { traits.isTextMarkup }

    /// True for the kinds whose geometry is ``Annotation/points``: a line's two end points, or
    /// the vertices of a polygon or polyline.
    public var hasPoints: Bool {
        switch traits.geometry {
        case .line, .vertices: true
        case .rect, .quads, .inkPaths: false
        }
    }

    /// True for the kinds drawn from quads, ink paths or points: the engine sets their
    /// rectangle to the bounds of what is drawn.
    public var hasDerivedRect: Bool { traits.geometry != .rect }

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

/// What an annotation kind is, written once: how its shape is given, which of the API's
/// optional fields it carries, and whether the API creates it. Validation, the PDF-object
/// reader of both engines, XFDF and the server's schema read it from ``table``.
public struct AnnotationKindTraits: Sendable, Equatable {
    /// How a kind's shape is given.
    public enum Geometry: Sendable, Equatable {
        /// Its rectangle (`/Rect`).
        case rect
        /// Quadrilaterals over marked text or areas (`/QuadPoints`, ``Annotation/quads``).
        case quads
        /// Freehand paths (`/InkList`, ``Annotation/inkPaths``).
        case inkPaths
        /// Two end points (`/L`, ``Annotation/points``).
        case line
        /// At least `minimum` vertices (`/Vertices`, ``Annotation/points``).
        case vertices(minimum: Int)
    }

    /// How its shape is given.
    public var geometry: Geometry
    /// Whether it is text markup (highlight, underline, squiggly, strike-out).
    public var isTextMarkup = false
    /// Whether it has an icon (`/Name`, ``Annotation/iconName``).
    public var hasIcon = false
    /// Whether it has an interior colour (`/IC`, ``Annotation/interiorColor``).
    public var hasInteriorColor = false
    /// Whether it has a border width (``Annotation/borderWidth``).
    public var hasBorder = false
    /// Whether it has a text style (`/DA`, ``Annotation/textStyle``).
    public var hasTextStyle = false
    /// Whether the API creates and changes it.
    public var isCreatable = false

    /// A row of the table: `geometry`, and the fields and roles the kind has (none unless given).
    public init(
        geometry: Geometry, isTextMarkup: Bool = false, hasIcon: Bool = false, hasInteriorColor: Bool = false, hasBorder: Bool = false,
        hasTextStyle: Bool = false, isCreatable: Bool = false
    ) {
        self.geometry = geometry
        self.isTextMarkup = isTextMarkup
        self.hasIcon = hasIcon
        self.hasInteriorColor = hasInteriorColor
        self.hasBorder = hasBorder
        self.hasTextStyle = hasTextStyle
        self.isCreatable = isCreatable
    }

    /// Every kind the API knows something of, in the order of ISO 32000-1's table of
    /// annotation types; a subtype not listed is read by its rectangle alone.
    public static let table: [(kind: AnnotationKind, traits: AnnotationKindTraits)] = [
        (.text, AnnotationKindTraits(geometry: .rect, hasIcon: true, isCreatable: true)),
        (.freeText, AnnotationKindTraits(geometry: .rect, hasBorder: true, hasTextStyle: true, isCreatable: true)),
        (.line, AnnotationKindTraits(geometry: .line, hasInteriorColor: true, hasBorder: true, isCreatable: true)),
        (.square, AnnotationKindTraits(geometry: .rect, hasInteriorColor: true, hasBorder: true, isCreatable: true)),
        (.circle, AnnotationKindTraits(geometry: .rect, hasInteriorColor: true, hasBorder: true, isCreatable: true)),
        (.polygon, AnnotationKindTraits(geometry: .vertices(minimum: 3), hasInteriorColor: true, hasBorder: true, isCreatable: true)),
        (.polyLine, AnnotationKindTraits(geometry: .vertices(minimum: 2), hasInteriorColor: true, hasBorder: true, isCreatable: true)),
        (.highlight, AnnotationKindTraits(geometry: .quads, isTextMarkup: true, isCreatable: true)),
        (.underline, AnnotationKindTraits(geometry: .quads, isTextMarkup: true, isCreatable: true)),
        (.squiggly, AnnotationKindTraits(geometry: .quads, isTextMarkup: true, isCreatable: true)),
        (.strikeOut, AnnotationKindTraits(geometry: .quads, isTextMarkup: true, isCreatable: true)),
        (.stamp, AnnotationKindTraits(geometry: .rect, hasIcon: true, isCreatable: true)),
        (.ink, AnnotationKindTraits(geometry: .inkPaths, hasBorder: true, isCreatable: true)),
        (AnnotationKind(rawValue: "FileAttachment"), AnnotationKindTraits(geometry: .rect, hasIcon: true)),
        (AnnotationKind(rawValue: "Sound"), AnnotationKindTraits(geometry: .rect, hasIcon: true)),
        (.redact, AnnotationKindTraits(geometry: .quads)),
    ]

    /// ``table`` by kind, for ``AnnotationKind/traits``.
    static let byKind = Dictionary(uniqueKeysWithValues: table.map { ($0.kind, $0.traits) })
}
