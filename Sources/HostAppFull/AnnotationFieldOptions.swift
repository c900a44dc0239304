import ArgumentParser
import HostCommands
import Foundation
import RendererProvider

/// The annotation fields `annotations add` and `update` set. Geometry is in points from the
/// page's top-left corner, as displayed.
struct AnnotationFieldOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Rectangle: x,y,width,height.", valueName: "x,y,w,h"))
    var rect: String?

    @Option(help: ArgumentHelp("Marked text (highlight, underline, strikeout, squiggly): rectangles x,y,w,h separated by ';'.", valueName: "rects"))
    var quads: String?

    @Option(help: ArgumentHelp(
        "Points x,y separated by ';': a line's start and end, a polygon's or polyline's vertices, or ink strokes separated by '|'.",
        valueName: "points"))
    var points: String?

    @Option(help: ArgumentHelp("Colour as #RRGGBB, or 'none'.", valueName: "colour"))
    var color: String?

    @Option(help: ArgumentHelp("Fill of squares, circles, polygons and lines as #RRGGBB, or 'none'.", valueName: "colour"))
    var interiorColor: String?

    @Option(help: "Opacity from 0 to 1.")
    var opacity: Double?

    @Option(help: ArgumentHelp("Border or line width in points.", valueName: "points"))
    var width: Double?

    @Option(help: "Text of the annotation.")
    var contents: String?

    @Option(help: "Author.")
    var author: String?

    @Option(help: "Subject.")
    var subject: String?

    @Option(help: ArgumentHelp("Icon of a note (Note, Comment, ...) or stamp (Approved, Draft, ...).", valueName: "name"))
    var icon: String?

    @Option(name: .customLong("in-reply-to"), help: ArgumentHelp("The id of the annotation of the same page this one answers (a reply in its thread).", valueName: "id"))
    var inReplyTo: String?

    @Option(help: ArgumentHelp(
        "The review state this annotation gives the one it answers: \(ReviewState.allCases.map { $0.rawValue.lowercased() }.joined(separator: ", ")).",
        valueName: "state"))
    var state: String?

    @Option(help: ArgumentHelp("A free text's font: helvetica, times or courier.", valueName: "family"))
    var font: String?

    @Option(help: ArgumentHelp("A free text's font size in points.", valueName: "points"))
    var textSize: Double?

    @Option(help: ArgumentHelp("A free text's text colour as #RRGGBB.", valueName: "colour"))
    var textColor: String?

    @Option(help: ArgumentHelp("How a free text's lines align: left, center or right.", valueName: "alignment"))
    var align: String?

    /// `annotation` with the given fields changed.
    func apply(to annotation: Annotation) throws -> Annotation {
        var result = annotation
        if let rect { result.rect = try Self.rectangle(rect, option: "--rect") }
        if let quads {
            result.quads = try quads.split(separator: ";").map { Quad(try Self.rectangle(String($0), option: "--quads")) }
        }
        if let points {
            let paths = try points.split(separator: "|").map { try Self.pointList(String($0)) }
            if result.kind == .ink { result.inkPaths = paths } else { result.points = paths.flatMap { $0 } }
        }
        if let color { result.color = try Self.color(color, option: "--color") }
        if let interiorColor { result.interiorColor = try Self.color(interiorColor, option: "--interior-color") }
        if let opacity { result.opacity = opacity }
        if let width { result.borderWidth = width }
        if let contents { result.contents = contents }
        if let author { result.author = author }
        if let subject { result.subject = subject }
        if let icon { result.iconName = icon }
        if let inReplyTo { result.inReplyTo = inReplyTo }
        if let state {
            guard let value = ReviewState(pdfName: state, model: nil) else {
                throw ValidationError("--state: \"\(state)\" is not one of \(ReviewState.allCases.map { $0.rawValue.lowercased() }.joined(separator: ", "))")
            }
            result.reviewState = value
        }
        if font != nil || textSize != nil || textColor != nil || align != nil {
            var style = result.textStyle ?? TextStyle()
            if let font {
                guard let family = FontFamily.standard.first(where: { $0.rawValue.lowercased() == font.lowercased() }) else {
                    throw ValidationError("--font: \"\(font)\" is not one of helvetica, times, courier")
                }
                style.fontFamily = family
            }
            if let textSize { style.fontSize = textSize }
            if let textColor {
                guard let color = Color(hex: textColor) else { throw ValidationError("--text-color: \"\(textColor)\" is not a colour like #FF8000") }
                style.color = color
            }
            if let align {
                guard let alignment = TextAlignment(rawValue: align.lowercased()) else {
                    throw ValidationError("--align: \"\(align)\" is not one of left, center, right")
                }
                style.alignment = alignment
            }
            result.textStyle = style
        }
        if rect == nil, result.kind.hasDerivedRect {
            result.rect = PageRect.enclosing(
                result.quads.map(\.bounds) + (result.inkPaths.flatMap { $0 } + result.points).map { PageRect(origin: $0, size: PageSize(width: 0, height: 0)) })
        }
        return result
    }

    /// The rectangle `text` (x,y,w,h) gives; a usage error naming `option` otherwise.
    static func rectangle(_ text: String, option: String) throws -> PageRect {
        try GeometryArgument.rectangle(text, option: option)
    }

    private static func pointList(_ text: String) throws -> [PagePoint] {
        try text.split(separator: ";").map { try GeometryArgument.point(String($0), option: "--points") }
    }

    private static func color(_ text: String, option: String) throws -> Color? {
        if text.lowercased() == "none" { return nil }
        guard let color = Color(hex: text) else { throw ValidationError("\(option): \"\(text)\" is not a colour like #FF8000") }
        return color
    }
}
