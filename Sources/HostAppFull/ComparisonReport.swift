import Foundation
import HostCommands
import RendererComparison
import RendererProvider

/// Writes `hostapp compare --report DIR`: an HTML page a person opens in a browser, with
/// each compared page's two renders and heat map side by side and its figures, failing
/// pages first. The images are written as they are made; the page when all are done.
final class ComparisonReport {
    private let directory: URL

    /// Creates `directory` if needed.
    init(directory path: String) throws {
        directory = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw RendererError(.ioFailure, "cannot create the report directory \(path): \((error as NSError).localizedDescription)")
        }
    }

    /// The files of one page's images: the reference's render, the candidate's, the heat map.
    static func imageNames(page: Int, candidate: String) -> (reference: String, candidate: String, heat: String) {
        ("page-\(page + 1)-reference.png", "page-\(page + 1)-\(candidate).png", "page-\(page + 1)-\(candidate)-differences.png")
    }

    /// Writes one page's images. The reference's render is the same for every candidate.
    func write(_ images: PageImages) throws {
        let names = Self.imageNames(page: images.pageIndex, candidate: images.candidate)
        try save(images.referenceRender, as: names.reference)
        try save(images.candidateRender, as: names.candidate)
        try save(images.heatMap, as: names.heat)
    }

    /// Writes index.html for the finished comparison.
    func finish(_ comparison: DocumentComparison, file: String) throws {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>Comparison of \(escape(file))</title>
            <style>
            body { font-family: sans-serif; margin: 2em; color: #222; }
            .page { border-top: 1px solid #ccc; padding: 1em 0; }
            .fail h3 { color: #b00; } .pass h3 { color: #070; }
            .images { display: flex; gap: 1em; flex-wrap: wrap; }
            figure { margin: 0; } figure img { max-width: 30vw; border: 1px solid #999; }
            table.figures td, table.figures th { padding: 0.2em 0.8em; text-align: right; }
            </style></head><body>
            <h1>Comparison of \(escape(file))</h1>
            <p>Reference: <b>\(escape(comparison.reference))</b>, rendered at \(PageNumbering.number(comparison.dpi)) dpi.
            Result: <b id="result">\(comparison.passed ? "pass" : "FAIL")</b>.</p>
            <p>Thresholds: a pixel differs when a channel differs by more than \(comparison.thresholds.channel);
            a page fails when more than \(Figures.percent(comparison.thresholds.maximumShiftedDifferingShare)) of its pixels,
            or \(Figures.percent(comparison.thresholds.maximumShiftedDifferingShareOfInk)) of its inked area, differ even allowing a
            1-pixel shift, when fewer than \(Figures.percent(comparison.thresholds.minimumTextAgreement)) of its words agree,
            or when sizes or links differ. In the heat maps, orange pixels differ and red ones differ even allowing a 1-pixel shift.</p>

            """
        for candidate in comparison.candidates {
            html += "<h2>\(escape(candidate.renderer)) against \(escape(comparison.reference)): \(candidate.passed ? "pass" : "FAIL")</h2>\n"
            for difference in candidate.differences { html += "<p class=\"difference\">\(escape(difference))</p>\n" }
            // Failing pages first, then in page order.
            let ordered = candidate.pages.filter { !$0.passed } + candidate.pages.filter(\.passed)
            for page in ordered { html += section(for: page, candidate: candidate.renderer, reference: comparison.reference) }
        }
        html += "<script type=\"application/json\" id=\"comparison\">\(try embeddedJSON(comparison))</script>\n</body></html>\n"
        try write(Data(html.utf8), to: directory.appendingPathComponent("index.html"))
    }

    private func section(for page: PageComparison, candidate: String, reference: String) -> String {
        let names = Self.imageNames(page: page.pageIndex, candidate: candidate)
        var html = "<div class=\"page \(page.passed ? "pass" : "fail")\" data-page=\"\(page.pageIndex + 1)\">\n"
        html += "<h3>Page \(page.pageIndex + 1): \(page.passed ? "pass" : "FAIL")</h3>\n"
        if !page.failures.isEmpty {
            html += "<ul>" + page.failures.map { "<li>\(escape($0))</li>" }.joined() + "</ul>\n"
        }
        html += "<table class=\"figures\"><tr><th>differing</th><th>differing after 1-pixel shift</th><th>of inked area</th><th>PSNR</th><th>words agreeing</th></tr><tr>"
        let pixels = page.pixels
        html += cell("differing-share", pixels?.differingShare, Figures.percent)
        html += cell("shifted-differing-share", pixels?.shiftedDifferingShare, Figures.percent)
        html += cell("shifted-differing-share-of-ink", pixels?.shiftedDifferingShareOfInk, Figures.percent)
        html += pixels == nil ? "<td>-</td>" : cell("psnr", pixels?.psnr, { Figures.psnr($0) }, missing: Figures.psnr(nil))
        html += cell("text-agreement", page.textAgreement, Figures.percent)
        html += "</tr></table>\n"
        if pixels != nil {
            html += "<div class=\"images\">"
            html += figure(names.reference, caption: reference) + figure(names.candidate, caption: candidate)
            html += figure(names.heat, caption: "where they differ")
            html += "</div>\n"
        }
        return html + "</div>\n"
    }

    private func cell(_ name: String, _ value: Double?, _ format: (Double) -> String, missing: String = "-") -> String {
        guard let value else { return "<td data-name=\"\(name)\">\(missing)</td>" }
        return "<td data-name=\"\(name)\" data-value=\"\(value)\">\(format(value))</td>"
    }

    private func figure(_ image: String, caption: String) -> String {
        "<figure><img src=\"\(escape(image))\" alt=\"\(escape(caption))\"><figcaption>\(escape(caption))</figcaption></figure>"
    }

    private func embeddedJSON(_ comparison: DocumentComparison) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(comparison), as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
    }

    private func save(_ bitmap: Bitmap, as name: String) throws {
        try write(try bitmap.pngData(), to: directory.appendingPathComponent(name))
    }

    private func write(_ data: Data, to url: URL) throws {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw RendererError(.ioFailure, "cannot write \(url.path): \((error as NSError).localizedDescription)")
        }
    }

    private func escape(_ text: String) -> String { text.escapedForMarkup }
}
