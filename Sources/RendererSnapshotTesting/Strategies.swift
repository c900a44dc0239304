import Foundation
import RendererComparison
import RendererProvider
import RendererTesting
import SnapshotTesting

/// swift-snapshot-testing strategies for a PDF held as a file URL, `Data` or a `Document`.
/// References are written and compared as that library does (its record modes, its
/// `__Snapshots__` folders); a reference drawn by another engine version fails saying so.
/// A PDF's pages drawn for a snapshot: the pages, or why they could not be drawn or read.
public enum PDFPages: Sendable {
    /// The pages drawn, with how they were drawn.
    case drawn(DocumentSnapshot)
    /// Why there are no pages: the PDF could not be drawn, or a reference could not be read.
    case unavailable(String)
}

/// The page strategy, for a PDF held any way `PDFSource` allows.
extension Snapshotting where Value: PDFSource, Format == PDFPages {
    /// Each page drawn by `renderer` at `dpi`, stored as one PNG file of the pages one under
    /// another, compared page by page under `tolerance`. A failure says which page differs
    /// and how much, and attaches the expected, actual and difference images.
    public static func pdfPages(
        renderer: String = TestingRenderers.defaultRenderer, dpi: Double = 72, tolerance: PixelTolerance = PixelTolerance()
    ) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .pdfPages(tolerance: tolerance)) { pdf in
            do {
                let document = try pdf.document(renderer: renderer, registry: TestingRenderers.registry)
                return .drawn(try DocumentSnapshot(of: document, dpi: dpi, aspects: .pages))
            } catch {
                return .unavailable("the PDF could not be drawn: \(error)")
            }
        }
    }
}

/// How page strips are stored and compared.
extension Diffing where Value == PDFPages {
    /// Page strips (one PNG of all pages) compared page by page under `tolerance`.
    public static func pdfPages(tolerance: PixelTolerance) -> Diffing {
        .diff(
            toData: { pages in
                switch pages {
                case .drawn(let snapshot): PageStrip.pngData(snapshot)
                case .unavailable(let reason): PageStrip.pngData(failure: reason)
                }
            },
            fromData: { data in
                switch PageStrip.snapshot(from: data) {
                case .success(let snapshot): .drawn(snapshot)
                case .failure(let error): .unavailable(error.message)
                }
            }
        ) { reference, actual in
            let (expected, drawn): (DocumentSnapshot, DocumentSnapshot)
            switch (reference, actual) {
            case (.unavailable(let reason), _), (_, .unavailable(let reason)): return (reason, [])
            case (.drawn(let a), .drawn(let b)): (expected, drawn) = (a, b)
            }
            let comparison: SnapshotComparison
            do {
                comparison = try SnapshotComparison(reference: expected, compared: drawn, tolerance: tolerance)
            } catch {
                return ("the pages could not be compared: \(error)", [])
            }
            guard !comparison.passed else { return nil }
            let attachments = comparison.differences.flatMap { difference in
                ((try? difference.attachments()) ?? []).map { DiffAttachment.data($0.data, name: $0.name) }
            }
            return (comparison.differences.map(\.message).joined(separator: "\n"), attachments)
        }
    }
}

/// The text, structure and agreement strategies, each compared line by line.
extension Snapshotting where Value: PDFSource, Format == String {
    /// Each page's text as `renderer` extracts it, each followed by a form feed and a newline
    /// (as `pdftotext` separates pages), compared line by line.
    public static func pdfText(renderer: String = TestingRenderers.defaultRenderer) -> Snapshotting {
        SimplySnapshotting.lines.pullback { pdf in
            described {
                let document = try pdf.document(renderer: renderer, registry: TestingRenderers.registry)
                return try (0..<document.pageCount).map { try document.text(pageAt: $0) + "\u{0C}\n" }.joined()
            }
        }
    }

    /// The document's `DocumentStructure` (page sizes, metadata without dates, outline,
    /// annotations, form fields, fonts) as `renderer` reads it: stable JSON, compared line by line.
    public static func pdfStructure(renderer: String = TestingRenderers.defaultRenderer) -> Snapshotting {
        SimplySnapshotting<String>(pathExtension: "json", diffing: .lines).pullback { pdf in
            described { try DocumentStructure(of: pdf.document(renderer: renderer, registry: TestingRenderers.registry)).jsonText() }
        }
    }

    /// Whether `renderers` draw and read the PDF alike (`RendererAgreement`): the verdict
    /// as text, one line a page that disagrees naming the renderer that stands apart. With
    /// the recorded verdict "3 renderers agree on every page", a PDF that one of them draws
    /// differently fails.
    public static func pdfRenderersAgree(
        renderers: [String] = ["mupdf", "poppler", "ghostscript"], dpi: Double = 72, thresholds: ComparisonThresholds = ComparisonThresholds()
    ) -> Snapshotting {
        SimplySnapshotting.lines.pullback { pdf in
            described { try RendererAgreement(pdf, renderers: renderers, dpi: dpi, thresholds: thresholds).verdict }
        }
    }

    /// `make()`'s text, or the error it throws as a line of text (a strategy cannot throw; the
    /// comparison with the reference then fails with the error in its diff).
    private static func described(_ make: () throws -> String) -> String {
        do { return try make() } catch { return "error: \(error)\n" }
    }
}
