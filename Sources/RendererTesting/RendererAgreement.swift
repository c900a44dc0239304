import Foundation
import RendererComparison
import RendererProvider

/// Whether several renderers draw and read one PDF alike, page by page, as `hostapp compare`
/// judges it: a PDF that only one viewer shows right is caught.
public struct RendererAgreement: Sendable {
    /// A page on which a renderer differs from the reference (the first renderer).
    public struct Disagreement: Sendable {
        /// The 0-based page index.
        public var pageIndex: Int
        /// The renderer that differs: the odd one out when the others agree with each other,
        /// else the candidate that differs from the reference.
        public var renderer: String
        /// Whether the others all agree with each other on the page.
        public var isOddOneOut: Bool
        /// What differs, in words.
        public var message: String
        /// Where the renderer's drawing differs from the reference's, when both drew the page.
        public var heatMap: Bitmap?
    }

    /// The comparison made.
    public var comparison: DocumentComparison
    /// Each page on which a renderer differs, in page order.
    public var disagreements: [Disagreement]

    /// Compares what `renderers` (the first the reference) make of `pdf` at `dpi` under
    /// `thresholds`. Throws when none of them can open it.
    public init(
        _ pdf: some PDFSource, renderers: [String] = ["mupdf", "poppler", "ghostscript"], dpi: Double = 72,
        thresholds: ComparisonThresholds = ComparisonThresholds(), registry: RendererRegistry = TestingRenderers.registry
    ) throws {
        let data = try pdf.document(renderer: renderers[0], registry: registry).sourceData()
        var heatMaps: [String: Bitmap] = [:]
        comparison = try DocumentComparer(dpi: dpi, thresholds: thresholds).compare(
            .memory(data), renderers: renderers, registry: registry, images: { images in heatMaps["\(images.candidate) \(images.pageIndex)"] = images.heatMap })
        var found: [Disagreement] = []
        for candidate in comparison.candidates {
            for page in candidate.pages where !page.passed {
                let odd = comparison.oddOnesOut.first { $0.pageIndex == page.pageIndex }
                // A page with an odd one out is reported once, for that renderer.
                if odd != nil, found.contains(where: { $0.pageIndex == page.pageIndex && $0.isOddOneOut }) { continue }
                let renderer = odd?.renderer ?? candidate.renderer
                let others = renderers.filter { $0 != renderer }.joined(separator: ", ")
                let message = odd != nil
                    ? "page \(page.pageIndex + 1): \(renderer) differs from \(others), which agree: " + page.failures.joined(separator: "; ")
                    : "page \(page.pageIndex + 1): \(candidate.renderer) differs from \(comparison.reference): " + page.failures.joined(separator: "; ")
                found.append(Disagreement(
                    pageIndex: page.pageIndex, renderer: renderer, isOddOneOut: odd != nil, message: message,
                    heatMap: heatMaps["\(candidate.renderer) \(page.pageIndex)"]))
            }
            for difference in candidate.differences {
                found.append(Disagreement(pageIndex: 0, renderer: candidate.renderer, isOddOneOut: false, message: difference))
            }
        }
        disagreements = found.sorted { $0.pageIndex < $1.pageIndex }
    }

    /// The verdict, one line a page that disagrees (or one line saying all agree): stable
    /// text for a snapshot.
    public var verdict: String {
        guard !disagreements.isEmpty else {
            return "\(comparison.candidates.map(\.renderer).count + 1) renderers agree on every page\n"
        }
        return disagreements.map(\.message).joined(separator: "\n") + "\n"
    }
}
