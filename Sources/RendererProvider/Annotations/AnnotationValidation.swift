/// Checks that an annotation has the geometry and values its kind needs, within
/// ``AnnotationLimits``, before any engine sees it: what ``Document`` checks before an edit,
/// and what a store of annotations that later become edits (a collaboration layer) checks
/// before it keeps one.
public enum AnnotationValidation {
    /// Throws `invalidArgument`, saying what is wrong, unless `annotation` is one the API writes.
    public static func check(_ annotation: Annotation) throws {
        try AnnotationLimits.check(annotation)
        let kind = annotation.kind
        func fail(_ message: String) -> RendererError {
            RendererError(.invalidArgument, "\(kind) annotation: \(message)")
        }
        let numbers = [annotation.rect.minX, annotation.rect.minY, annotation.rect.size.width, annotation.rect.size.height, annotation.opacity]
            + annotation.quads.flatMap { [$0.upperLeft, $0.upperRight, $0.lowerLeft, $0.lowerRight] }.flatMap { [$0.x, $0.y] }
            + (annotation.inkPaths.flatMap { $0 } + annotation.points).flatMap { [$0.x, $0.y] }
        guard numbers.allSatisfy(\.isFinite) else { throw fail("coordinates and opacity must be finite numbers") }
        guard (0...1).contains(annotation.opacity) else { throw fail("opacity must be from 0 to 1, not \(annotation.opacity)") }
        if let width = annotation.borderWidth, !(width.isFinite && width >= 0) {
            throw fail("border width must be 0 or more points, not \(width)")
        }
        let traits = kind.traits
        switch traits.geometry {
        case .rect:
            if annotation.rect.isEmpty { throw fail("needs a rectangle with a positive width and height") }
        case .quads:
            if annotation.quads.isEmpty { throw fail("needs at least one quad of marked text") }
        case .inkPaths:
            if annotation.inkPaths.isEmpty || annotation.inkPaths.contains(where: \.isEmpty) {
                throw fail("needs at least one ink path, each with at least one point")
            }
        case .line:
            if annotation.points.count != 2 { throw fail("needs exactly 2 points, its start and end, not \(annotation.points.count)") }
        case .vertices(let minimum):
            if annotation.points.count < minimum { throw fail("needs at least \(minimum) vertices, not \(annotation.points.count)") }
        }
        let misplaced: [(Bool, String)] = [
            (traits.geometry != .quads && !annotation.quads.isEmpty, "quads"),
            (traits.geometry != .inkPaths && !annotation.inkPaths.isEmpty, "ink paths"),
            (!kind.hasPoints && !annotation.points.isEmpty, "points"),
            (!traits.hasInteriorColor && annotation.interiorColor != nil, "an interior colour"),
            (!traits.hasIcon && annotation.iconName != nil, "an icon name"),
            (!traits.hasBorder && annotation.borderWidth != nil, "a border width"),
            (!traits.hasTextStyle && annotation.textStyle != nil, "a text style"),
        ]
        if let (_, field) = misplaced.first(where: \.0) { throw fail("has \(field), which only other kinds use") }
        if let style = annotation.textStyle {
            guard style.fontSize.isFinite, style.fontSize > 0, style.fontSize <= 1_000 else {
                throw fail("font size must be more than 0 and at most 1,000 points, not \(style.fontSize)")
            }
            let name = style.fontFamily.resourceName
            guard (1...64).contains(name.utf8.count), name.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }) else {
                throw fail("a font family is Helvetica, Times, Courier or a font resource's name of 1 to 64 letters and digits")
            }
        }
    }
}
