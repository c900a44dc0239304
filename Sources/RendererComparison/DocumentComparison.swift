import RendererProvider

/// One document run through several renderers, each compared with the first (the reference).
public struct DocumentComparison: Hashable, Sendable, Codable {
    public var reference: String
    public var dpi: Double
    public var thresholds: ComparisonThresholds
    public var candidates: [CandidateComparison]
    /// True when every candidate passed.
    public var passed: Bool
}

/// How one renderer's view of a document compares with the reference renderer's.
public struct CandidateComparison: Hashable, Sendable, Codable {
    public var renderer: String
    public var referencePageCount: Int
    public var candidatePageCount: Int?
    /// What differs for the whole document (page count, outline, a renderer that cannot
    /// open it); each is a failure.
    public var differences: [String]
    public var pages: [PageComparison]
    /// True when there are no document differences and every page passed.
    public var passed: Bool
}

/// One page through two renderers.
public struct PageComparison: Hashable, Sendable, Codable {
    public var pageIndex: Int
    public var referenceSize: PageSize?
    public var candidateSize: PageSize?
    /// `nil` when the renders could not be compared (a renderer failed, or the sizes differ).
    public var pixels: PixelMetrics?
    /// Word agreement of the two texts; `nil` when a renderer has no text.
    public var textAgreement: Double?
    /// Why the page fails, one line each, naming the renderers; empty when it passes.
    public var failures: [String]
    public var passed: Bool
}

/// The images of one compared page, for a report.
public struct PageImages: Sendable {
    public var candidate: String
    public var pageIndex: Int
    public var referenceRender: Bitmap
    public var candidateRender: Bitmap
    public var heatMap: Bitmap
}

extension Destination {
    /// Equal, with page points within `tolerance` points of each other.
    public func matches(_ other: Destination, within tolerance: Double = 1) -> Bool {
        switch (self, other) {
        case (.page(let i, let p), .page(let j, let q)):
            guard i == j else { return false }
            guard let p, let q else { return p == nil && q == nil }
            return abs(p.x - q.x) <= tolerance && abs(p.y - q.y) <= tolerance
        default:
            return self == other
        }
    }
}
