#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An annotation on a page, the same value whichever engine read or wrote it.
///
/// Geometry is in page space (see ``PagePoint``). Which fields an engine reads and writes is
/// in its ``AnnotationSupport``; a field an engine does not read is `nil` or empty.
/// Annotations are found by ``id``, never by their position on the page.
public struct Annotation: Hashable, Sendable, Codable, Identifiable {
    /// The stable identity: the annotation's PDF name (`/NM`) where it has one; otherwise a
    /// key of the page number, kind and position among the page's annotations of that kind
    /// (such as `p3-Highlight-2`), which the engines compute alike. Leave it empty when
    /// adding: the document gives a new annotation a unique name.
    public var id: String
    /// What the annotation is: its PDF subtype.
    public var kind: AnnotationKind
    /// The 0-based index of the page the annotation is on.
    public var pageIndex: Int
    /// Where the annotation is drawn. For kinds with ``AnnotationKind/hasDerivedRect`` the
    /// engine sets it to the bounds of the drawing, and a rectangle given when adding is
    /// only a hint.
    public var rect: PageRect
    /// The marked text of highlight, underline, strikeout and squiggly annotations.
    public var quads: [Quad]
    /// The strokes of an ink annotation, each a list of points.
    public var inkPaths: [[PagePoint]]
    /// A line's start and end point, or a polygon's or polyline's vertices.
    public var points: [PagePoint]
    /// The annotation's colour (`/C`): its border, text markup or icon; nil for none.
    public var color: Color?
    /// The fill of squares, circles, polygons and line endings (`/IC`); nil for none.
    public var interiorColor: Color?
    /// The constant opacity (`/CA`) from 0 to 1.
    public var opacity: Double
    /// The border or line width in points (`/BS /W`); nil when the file sets none.
    public var borderWidth: Double?
    /// The text shown or popped up (`/Contents`).
    public var contents: String?
    /// The author (`/T`).
    public var author: String?
    /// The subject (`/Subj`).
    public var subject: String?
    /// When the annotation was created; nil when the file does not say.
    public var creationDate: Date?
    /// When the annotation was last changed; nil when the file does not say.
    public var modificationDate: Date?
    /// The annotation's PDF flags (`/F`).
    public var flags: AnnotationFlags
    /// The icon of a text note (`Note`, `Comment`, ...) or a stamp (`Approved`, `Draft`, ...).
    public var iconName: String?
    /// The annotation this one answers (`/IRT`), by ``id``: a reply in its thread, on the same
    /// page; nil for an annotation that answers none. Removing an annotation removes its
    /// replies.
    public var inReplyTo: String?
    /// The review state this annotation gives the one it answers (`/State` in its
    /// `/StateModel`); nil for none.
    public var reviewState: ReviewState?
    /// How a free text annotation's text is set (`/DA`, `/Q`); nil for other kinds, or when
    /// the file sets none.
    public var textStyle: TextStyle?

    /// An annotation with the given fields; an empty `id` is given a new unique name when the
    /// annotation is added.
    public init(
        id: String = "", kind: AnnotationKind, pageIndex: Int, rect: PageRect, quads: [Quad] = [],
        inkPaths: [[PagePoint]] = [], points: [PagePoint] = [], color: Color? = nil,
        interiorColor: Color? = nil, opacity: Double = 1, borderWidth: Double? = nil,
        contents: String? = nil, author: String? = nil, subject: String? = nil,
        creationDate: Date? = nil, modificationDate: Date? = nil, flags: AnnotationFlags = .print,
        iconName: String? = nil, inReplyTo: String? = nil, reviewState: ReviewState? = nil, textStyle: TextStyle? = nil
    ) {
        self.id = id
        self.kind = kind
        self.pageIndex = pageIndex
        self.rect = rect
        self.quads = quads
        self.inkPaths = inkPaths
        self.points = points
        self.color = color
        self.interiorColor = interiorColor
        self.opacity = opacity
        self.borderWidth = borderWidth
        self.contents = contents
        self.author = author
        self.subject = subject
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.flags = flags
        self.iconName = iconName
        self.inReplyTo = inReplyTo
        self.reviewState = reviewState
        self.textStyle = textStyle
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, pageIndex, rect, quads, inkPaths, points, color, interiorColor, opacity, borderWidth
        case contents, author, subject, creationDate, modificationDate, flags, iconName, inReplyTo, reviewState, textStyle
    }

    /// Decodes an annotation; only `kind`, `pageIndex` and `rect` are required, the other
    /// fields default as in ``init(id:kind:pageIndex:rect:quads:inkPaths:points:color:interiorColor:opacity:borderWidth:contents:author:subject:creationDate:modificationDate:flags:iconName:inReplyTo:reviewState:textStyle:)``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decodeIfPresent(String.self, forKey: .id) ?? "",
            kind: try c.decode(AnnotationKind.self, forKey: .kind),
            pageIndex: try c.decode(Int.self, forKey: .pageIndex),
            rect: try c.decode(PageRect.self, forKey: .rect),
            quads: try c.decodeIfPresent([Quad].self, forKey: .quads) ?? [],
            inkPaths: try c.decodeIfPresent([[PagePoint]].self, forKey: .inkPaths) ?? [],
            points: try c.decodeIfPresent([PagePoint].self, forKey: .points) ?? [],
            color: try c.decodeIfPresent(Color.self, forKey: .color),
            interiorColor: try c.decodeIfPresent(Color.self, forKey: .interiorColor),
            opacity: try c.decodeIfPresent(Double.self, forKey: .opacity) ?? 1,
            borderWidth: try c.decodeIfPresent(Double.self, forKey: .borderWidth),
            contents: try c.decodeIfPresent(String.self, forKey: .contents),
            author: try c.decodeIfPresent(String.self, forKey: .author),
            subject: try c.decodeIfPresent(String.self, forKey: .subject),
            creationDate: try c.decodeIfPresent(Date.self, forKey: .creationDate),
            modificationDate: try c.decodeIfPresent(Date.self, forKey: .modificationDate),
            flags: try c.decodeIfPresent(AnnotationFlags.self, forKey: .flags) ?? .print,
            iconName: try c.decodeIfPresent(String.self, forKey: .iconName),
            inReplyTo: try c.decodeIfPresent(String.self, forKey: .inReplyTo),
            reviewState: try c.decodeIfPresent(ReviewState.self, forKey: .reviewState),
            textStyle: try c.decodeIfPresent(TextStyle.self, forKey: .textStyle))
    }

    /// The fields this annotation sets: those that differ from a new annotation's defaults.
    public var setFields: Set<AnnotationField> {
        var fields: Set<AnnotationField> = [.rect]
        if !quads.isEmpty { fields.insert(.quads) }
        if !inkPaths.isEmpty { fields.insert(.inkPaths) }
        if !points.isEmpty { fields.insert(.points) }
        if color != nil { fields.insert(.color) }
        if interiorColor != nil { fields.insert(.interiorColor) }
        if opacity != 1 { fields.insert(.opacity) }
        if borderWidth != nil { fields.insert(.borderWidth) }
        if contents != nil { fields.insert(.contents) }
        if author != nil { fields.insert(.author) }
        if subject != nil { fields.insert(.subject) }
        if creationDate != nil { fields.insert(.creationDate) }
        if modificationDate != nil { fields.insert(.modificationDate) }
        if flags != .print { fields.insert(.flags) }
        if iconName != nil { fields.insert(.iconName) }
        if inReplyTo != nil { fields.insert(.inReplyTo) }
        if reviewState != nil { fields.insert(.reviewState) }
        if textStyle != nil { fields.insert(.textStyle) }
        return fields
    }

    /// The fields whose values differ from `other`'s.
    public func changedFields(from other: Annotation) -> Set<AnnotationField> {
        Set(AnnotationField.allCases.filter { field in
            switch field {
            case .rect: rect != other.rect
            case .quads: quads != other.quads
            case .inkPaths: inkPaths != other.inkPaths
            case .points: points != other.points
            case .color: color != other.color
            case .interiorColor: interiorColor != other.interiorColor
            case .opacity: opacity != other.opacity
            case .borderWidth: borderWidth != other.borderWidth
            case .contents: contents != other.contents
            case .author: author != other.author
            case .subject: subject != other.subject
            case .creationDate: creationDate != other.creationDate
            case .modificationDate: modificationDate != other.modificationDate
            case .flags: flags != other.flags
            case .iconName: iconName != other.iconName
            case .inReplyTo: inReplyTo != other.inReplyTo
            case .reviewState: reviewState != other.reviewState
            case .textStyle: textStyle != other.textStyle
            }
        })
    }

    /// The annotation with the flags ISO 32000-1 implies for its kind: text notes behave as
    /// if `noZoom` and `noRotate` were set (12.5.6.4), and are reported so by every backend.
    package func withImpliedFlags() -> Annotation {
        guard kind == .text else { return self }
        var copy = self
        copy.flags.formUnion([.noZoom, .noRotate])
        return copy
    }

    /// This annotation with `fields` reset to a new annotation's defaults.
    public func clearing(_ fields: Set<AnnotationField>) -> Annotation {
        var copy = self
        for field in fields {
            switch field {
            case .rect: break
            case .quads: copy.quads = []
            case .inkPaths: copy.inkPaths = []
            case .points: copy.points = []
            case .color: copy.color = nil
            case .interiorColor: copy.interiorColor = nil
            case .opacity: copy.opacity = 1
            case .borderWidth: copy.borderWidth = nil
            case .contents: copy.contents = nil
            case .author: copy.author = nil
            case .subject: copy.subject = nil
            case .creationDate: copy.creationDate = nil
            case .modificationDate: copy.modificationDate = nil
            case .flags: copy.flags = .print
            case .iconName: copy.iconName = nil
            case .inReplyTo: copy.inReplyTo = nil
            case .reviewState: copy.reviewState = nil
            case .textStyle: copy.textStyle = nil
            }
        }
        return copy
    }
}

/// A field of ``Annotation`` besides its identity, kind and page.
public enum AnnotationField: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// The rectangle.
    case rect, quads, inkPaths, points, color, interiorColor, opacity, borderWidth
    /// The text contents.
    case contents, author, subject, creationDate, modificationDate, flags, iconName
    /// The thread: the annotation answered, and the review state given it.
    case inReplyTo, reviewState
    /// A free text annotation's font, size, text colour and alignment.
    case textStyle

    public static func < (lhs: AnnotationField, rhs: AnnotationField) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What a renderer does with annotations.
public struct AnnotationSupport: Hashable, Sendable, Codable {
    /// The kinds it can create.
    public var creatableKinds: Set<AnnotationKind>
    /// The fields it reads from a file.
    public var readableFields: Set<AnnotationField>
    /// The fields it can write when adding or updating an annotation.
    public var writableFields: Set<AnnotationField>
    /// Fields it neither reads nor writes on some kinds, although it does on others.
    public var unsupportedFieldsByKind: [AnnotationKind: Set<AnnotationField>]
    /// True when it writes an annotation's identity into the file as its `/NM` name;
    /// otherwise the annotations it adds are known by positional keys.
    public var writesNames: Bool
    /// True when it can write a whole new file, not only an incremental update.
    public var canRewrite: Bool

    /// Support as described by each property.
    public init(
        creatableKinds: Set<AnnotationKind>, readableFields: Set<AnnotationField>, writableFields: Set<AnnotationField>,
        unsupportedFieldsByKind: [AnnotationKind: Set<AnnotationField>] = [:], writesNames: Bool, canRewrite: Bool
    ) {
        self.writesNames = writesNames
        self.creatableKinds = creatableKinds
        self.readableFields = readableFields
        self.writableFields = writableFields
        self.unsupportedFieldsByKind = unsupportedFieldsByKind
        self.canRewrite = canRewrite
    }

    /// The fields it reads on annotations of `kind`.
    public func readableFields(for kind: AnnotationKind) -> Set<AnnotationField> {
        readableFields.subtracting(unsupportedFieldsByKind[kind] ?? [])
    }

    /// The fields it writes on annotations of `kind`.
    public func writableFields(for kind: AnnotationKind) -> Set<AnnotationField> {
        writableFields.subtracting(unsupportedFieldsByKind[kind] ?? [])
    }

    /// Every creatable kind, every field read and written, names written, files rewritten.
    public static let complete = AnnotationSupport(
        creatableKinds: Set(AnnotationKind.creatable), readableFields: Set(AnnotationField.allCases),
        writableFields: Set(AnnotationField.allCases), writesNames: true, canRewrite: true)

    /// No annotation support at all.
    public static let none = AnnotationSupport(creatableKinds: [], readableFields: [], writableFields: [], writesNames: false, canRewrite: false)
}

/// A review state an annotation gives the one it answers (`/State`), in its state model
/// (`/StateModel`: `Review` or `Marked`); the raw values are the PDF's names.
public enum ReviewState: String, Hashable, Sendable, Codable, CaseIterable {
    /// The `Review` model's states a reviewer gives.
    case accepted = "Accepted", rejected = "Rejected", cancelled = "Cancelled", completed = "Completed"
    /// No review state (the `Review` model's `None`).
    case noState = "None"
    /// The `Marked` model's states: marked or not.
    case marked = "Marked", unmarked = "Unmarked"

    /// The state model it belongs to: `Marked` for marked and unmarked, `Review` for the rest.
    public var model: String { self == .marked || self == .unmarked ? "Marked" : "Review" }

    /// The state a file names in `model` (either letter case); nil for another.
    public init?(pdfName name: String, model: String?) {
        guard let state = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }),
            model.map({ $0.lowercased() == state.model.lowercased() }) ?? true
        else { return nil }
        self = state
    }
}
