/// The most an annotation may hold, wherever it comes from (an application, the command
/// line, the server's routes, a collaboration layer): finite geometry within 100,000 points
/// of the page's origin, at most 40,000 points and quad corners in all in at most 1,000 ink
/// paths, contents of at most 64 KiB, a subject of at most 4 KiB and an id of at most 200
/// bytes. An engine never sees an annotation past these, so one note cannot make a page take
/// minutes to draw.
public enum AnnotationLimits {
    /// The largest distance of any coordinate from the page's origin, in points.
    public static let maximumCoordinate = 100_000.0
    /// The most points (ink, vertices, rectangle corners and quad corners) in all.
    public static let maximumPoints = 40_000
    /// The most ink paths.
    public static let maximumInkPaths = 1_000
    /// The most bytes of contents, in UTF-8.
    public static let maximumContentsBytes = 65_536

    /// Throws `invalidArgument` when `annotation` goes past a limit.
    public static func check(_ annotation: Annotation) throws {
        let points = [annotation.rect.origin, PagePoint(x: annotation.rect.size.width, y: annotation.rect.size.height)]
            + annotation.points + annotation.inkPaths.flatMap { $0 }
            + annotation.quads.flatMap { [$0.upperLeft, $0.upperRight, $0.lowerLeft, $0.lowerRight] }
        guard points.count <= maximumPoints, annotation.inkPaths.count <= maximumInkPaths else {
            throw RendererError(
                .invalidArgument, "the annotation has more than \(maximumPoints) points or \(maximumInkPaths) ink paths")
        }
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite && abs($0.x) <= maximumCoordinate && abs($0.y) <= maximumCoordinate }) else {
            throw RendererError(.invalidArgument, "the annotation's geometry is not finite or lies more than 100,000 points from the page")
        }
        guard (annotation.contents?.utf8.count ?? 0) <= maximumContentsBytes, (annotation.subject?.utf8.count ?? 0) <= 4_096,
            (annotation.author?.utf8.count ?? 0) <= 4_096, annotation.id.utf8.count <= 200
        else {
            throw RendererError(.invalidArgument, "the annotation's contents, subject, author or id is too long")
        }
    }
}
