import Foundation

/// A scanned document for text recognition's tests: pages 7-8 of Debian's "An Introduction
/// to R" (r-doc-pdf) drawn at 300 dpi in gray into an image-only PDF by
/// Tests/Fixtures/make-scan.py, made once per test run. The scan keeps the pages' geometry,
/// so the source's own text and word boxes (pdftotext) are what recognition must find.
public enum ScannedPages {
    /// The document the scan is made from.
    public static let source = "/usr/share/R/doc/manual/R-intro.pdf"
    /// The source's pages the scan holds, 1-based.
    public static let pages = (first: 7, last: 8)

    /// The scan's path.
    public static let path: String = {
        let folder = try! Tool.temporaryDirectory()
        let path = folder.appendingPathComponent("R-intro-scan.pdf").path
        let made = try! Tool.runBlocking("python3", [Fixtures.path("make-scan.py"), source, "\(pages.first)-\(pages.last)", "300", path])
        precondition(made.status == 0, made.stderr)
        return path
    }()

    /// The source pages' own text, as pdftotext reads it.
    public static func sourceText() async throws -> String {
        try await Tool.run("pdftotext", ["-f", "\(pages.first)", "-l", "\(pages.last)", source, "-"]).text
    }
}
