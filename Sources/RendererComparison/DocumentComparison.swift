import RendererProvider

/// One document run through several renderers, each compared with the first (the reference).
public struct DocumentComparison: Hashable, Sendable, Codable {
    /// The id of the reference renderer, the one every other is compared with.
    public var reference: String
    /// The resolution the pages were rendered at.
    public var dpi: Double
    /// Whether the renders drew the pages' annotations (``DocumentComparer/drawsAnnotations``).
    public var annotationsDrawn = true
    /// The thresholds the pages were judged against.
    public var thresholds: ComparisonThresholds
    /// One comparison per other renderer, in the order given.
    public var candidates: [CandidateComparison]
    /// The pages on which one renderer stands apart, in page order: among three or more
    /// renderers that all opened the document, every pair of the others agrees on the page
    /// and this one agrees with none of them. Empty with two renderers, where neither can
    /// be told the odd one.
    public var oddOnesOut: [OddOneOut] = []
    /// True when every candidate passed.
    public var passed: Bool
}

/// A page on which one renderer differs from all the others, which agree with each other.
public struct OddOneOut: Hashable, Sendable, Codable {
    /// The 0-based index of the page.
    public var pageIndex: Int
    /// The id of the renderer that differs.
    public var renderer: String

    /// Renderer `renderer` differing from the others on the page at `pageIndex`.
    public init(pageIndex: Int, renderer: String) {
        self.pageIndex = pageIndex
        self.renderer = renderer
    }
}

/// How one renderer's view of a document compares with the reference renderer's.
public struct CandidateComparison: Hashable, Sendable, Codable {
    /// The id of the renderer compared with the reference.
    public var renderer: String
    /// The reference's page count.
    public var referencePageCount: Int
    /// This renderer's page count.
    public var candidatePageCount: Int?
    /// What differs for the whole document (page count, outline, a renderer that cannot
    /// open it); each is a failure.
    public var differences: [String]
    /// Each compared page, in the order compared.
    public var pages: [PageComparison]
    /// True when there are no document differences and every page passed.
    public var passed: Bool
}

/// One page through two renderers.
public struct PageComparison: Hashable, Sendable, Codable {
    /// The 0-based index of the page.
    public var pageIndex: Int
    /// The page's size as the reference reports it, in points.
    public var referenceSize: PageSize?
    /// The page's size as the candidate reports it; nil when it has no such page.
    public var candidateSize: PageSize?
    /// `nil` when the renders could not be compared (a renderer failed, or the sizes differ).
    public var pixels: PixelMetrics?
    /// Word agreement of the two texts; `nil` when a renderer has no text.
    public var textAgreement: Double?
    /// Why the page fails, one line each, naming the renderers; empty when it passes.
    public var failures: [String]
    /// True when no threshold was crossed and both renderers drew the page.
    public var passed: Bool
}

/// The images of one compared page, for a report.
public struct PageImages: Sendable {
    /// The id of the candidate renderer.
    public var candidate: String
    /// The 0-based index of the page.
    public var pageIndex: Int
    /// The page as the reference drew it.
    public var referenceRender: Bitmap
    /// The page as the candidate drew it.
    public var candidateRender: Bitmap
    /// Where the renders differ: red where they differ even allowing a one-pixel shift, yellow
    /// where a shift explains the difference, gray elsewhere.
    public var heatMap: Bitmap
}

/// Comparing destinations within a tolerance, for outlines and links.
extension Destination {
    /// Equal, with page points, FitR rectangles and XYZ zooms within `tolerance` (points,
    /// or hundredths of a zoom) of each other; a view one engine gives and the other does
    /// not is no difference, the page and point agreeing.
    public func matches(_ other: Destination, within tolerance: Double = 1) -> Bool {
        func close(_ a: Double?, _ b: Double?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return abs(a - b) <= tolerance
        }
        switch (self, other) {
        case (.page(let i, let p, let v), .page(let j, let q, let w)):
            guard i == j, close(p?.x, q?.x), close(p?.y, q?.y) else { return false }
            guard let v, let w else { return true }
            return v.fit == w.fit && close(v.rect?.minX, w.rect?.minX) && close(v.rect?.minY, w.rect?.minY)
                && close(v.rect?.maxX, w.rect?.maxX) && close(v.rect?.maxY, w.rect?.maxY) && close(v.zoom.map { $0 * 100 }, w.zoom.map { $0 * 100 })
        default:
            return self == other
        }
    }
}
