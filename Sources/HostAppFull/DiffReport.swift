import Foundation
import HostCommands
import RendererComparison
import RendererProvider

/// What `hostapp diff` reports of a ``SnapshotComparison``: as text, JSON, an HTML page and
/// JUnit XML.
struct DiffReport {
    let comparison: SnapshotComparison
    /// The two files as the command line named them.
    let first, second: String

    // MARK: Text and JSON

    /// One line a difference (a text or structure difference with its changed lines), then a
    /// count; or one line saying the documents match.
    var text: String {
        let drawn = "drawn by \(comparison.reference.engine) \(comparison.reference.engineVersion) at \(PageNumbering.number(comparison.reference.dpi)) dpi"
        let heading = "\(first) (\(comparison.reference.pageCount) pages) and \(second) (\(comparison.compared.pageCount) pages), \(drawn)"
        guard !comparison.passed else { return heading + "\nThe documents match." }
        let count = comparison.differences.count
        return ([heading] + comparison.differences.map(\.message) + ["\(count) difference\(count == 1 ? "" : "s")"]).joined(separator: "\n")
    }

    /// The report as JSON: page indices are 0-based, as everywhere in the API.
    struct Summary: Encodable {
        struct PagePair: Encodable {
            /// The page's index in the first document and in the second; nil for a page only one has.
            var first, second: Int?
        }
        struct Difference: Encodable {
            var kind: String
            var section: String?
            var firstPageIndex, secondPageIndex: Int?
            var message: String
            var differingPixels, pixelCount: Int?
            var changedLines: [String]?
        }
        var matched: Bool
        var first, second: String
        var firstPageCount, secondPageCount: Int
        var renderer, engine, engineVersion: String
        var dpi: Double
        var tolerance: PixelTolerance
        var pages: [PagePair]
        var differences: [Difference]
    }

    var summary: Summary {
        let provenance = comparison.reference
        return Summary(
            matched: comparison.passed, first: first, second: second, firstPageCount: provenance.pageCount, secondPageCount: comparison.compared.pageCount,
            renderer: provenance.renderer, engine: provenance.engine, engineVersion: provenance.engineVersion, dpi: provenance.dpi,
            tolerance: comparison.tolerance,
            pages: comparison.pages.map { step in
                switch step {
                case .both(let a, let b): Summary.PagePair(first: a, second: b)
                case .onlyFirst(let a): Summary.PagePair(first: a, second: nil)
                case .onlySecond(let b): Summary.PagePair(first: nil, second: b)
                }
            },
            differences: comparison.differences.map { difference in
                Summary.Difference(
                    kind: difference.kind.rawValue, section: difference.section, firstPageIndex: difference.referencePage, secondPageIndex: difference.page,
                    message: difference.message, differingPixels: difference.pixels?.differingPixels, pixelCount: difference.pixels?.pixelCount,
                    changedLines: difference.lines?.changes)
            })
    }

    // MARK: HTML

    /// Writes `index.html` into `directory` (made if missing) with, for each page whose pixels
    /// differ, the two drawings side by side, overlaid under a slider, and the difference
    /// image (written beside it as PNG files); then the text and structure differences.
    func writeHTML(into directory: String) throws {
        let folder = URL(fileURLWithPath: directory)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw RendererError(.ioFailure, "cannot create the report directory \(directory): \((error as NSError).localizedDescription)")
        }
        var body = ""
        for difference in comparison.differences {
            body += "<section class=\"difference \(difference.kind.rawValue)\">\n<h2>\(Self.heading(difference.message).escapedForMarkup)</h2>\n"
            if let expected = difference.expectedImage, let actual = difference.actualImage, let page = difference.page {
                let stem = "page-" + String(format: "%03d", page + 1)
                try write(expected.pngData(), "\(stem)-first.png", in: folder)
                try write(actual.pngData(), "\(stem)-second.png", in: folder)
                if let image = difference.pixels?.image { try write(image.pngData(), "\(stem)-difference.png", in: folder) }
                body += Self.details(difference.message)
                body += """
                    <div class="side-by-side">
                    <figure><img src="\(stem)-first.png" alt="\(first.escapedForMarkup)"><figcaption>\(first.escapedForMarkup)</figcaption></figure>
                    <figure><img src="\(stem)-second.png" alt="\(second.escapedForMarkup)"><figcaption>\(second.escapedForMarkup)</figcaption></figure>
                    \(difference.pixels?.image == nil ? "" : "<figure><img src=\"\(stem)-difference.png\" alt=\"where they differ\"><figcaption>where they differ: red beyond the tolerance, orange by a subpixel shift</figcaption></figure>")
                    </div>

                    """
                if expected.width == actual.width, expected.height == actual.height {
                    body += """
                        <figure class="overlay"><div class="stack" style="--split: 50%">
                        <img src="\(stem)-first.png" alt="\(first.escapedForMarkup)"><img class="top" src="\(stem)-second.png" alt="\(second.escapedForMarkup)">
                        </div>
                        <input type="range" min="0" max="100" value="50" aria-label="Show more of \(first.escapedForMarkup) or of \(second.escapedForMarkup)"
                        oninput="this.previousElementSibling.style.setProperty('--split', this.value + '%')">
                        <figcaption>\(first.escapedForMarkup) on the left of the line, \(second.escapedForMarkup) on the right</figcaption></figure>

                        """
                }
            } else if let lines = difference.lines {
                body += "<pre>" + lines.changes.map { "<span class=\"\($0.hasPrefix("-") ? "removed" : "added")\">\($0.escapedForMarkup)</span>" }.joined(separator: "\n") + "</pre>\n"
            }
            body += "</section>\n"
        }
        let result = comparison.passed ? "The documents match." : "\(comparison.differences.count) differences."
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>\(first.escapedForMarkup) and \(second.escapedForMarkup)</title>
            <style>
            body { font-family: sans-serif; margin: 2em; color: #222; }
            section { border-top: 1px solid #ccc; padding: 1em 0; }
            .side-by-side { display: flex; gap: 1em; flex-wrap: wrap; }
            figure { margin: 0; } figure img { max-width: 30vw; border: 1px solid #999; }
            .overlay { margin-top: 1em; } .stack { position: relative; display: inline-block; }
            .stack img { display: block; max-width: 60vw; border: 1px solid #999; }
            .stack .top { position: absolute; top: 0; left: 0; clip-path: inset(0 0 0 var(--split)); }
            .overlay input { display: block; width: 60vw; }
            pre .removed { color: #a00; } pre .added { color: #070; }
            </style></head><body>
            <h1>\(first.escapedForMarkup) and \(second.escapedForMarkup)</h1>
            <p>Drawn by \(comparison.reference.engine.escapedForMarkup) \(comparison.reference.engineVersion.escapedForMarkup) at \(PageNumbering.number(comparison.reference.dpi)) dpi.
            <b id="result">\(result)</b></p>
            \(body)</body></html>

            """
        try write(Data(html.utf8), "index.html", in: folder)
    }

    /// A message's first line, and the lines after it as a list.
    private static func heading(_ message: String) -> String { String(message.prefix { $0 != "\n" }) }
    private static func details(_ message: String) -> String {
        let rest = message.split(separator: "\n").dropFirst()
        return rest.isEmpty ? "" : "<pre>" + rest.joined(separator: "\n").escapedForMarkup + "</pre>\n"
    }

    private func write(_ data: Data, _ name: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(name)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw RendererError(.ioFailure, "cannot write \(url.path): \((error as NSError).localizedDescription)")
        }
    }

    // MARK: JUnit

    /// Writes JUnit XML to `path`: one test suite, a test case for each matched or lone page
    /// and for each aspect of the structure, failed with the differences found in it.
    func writeJUnit(to path: String) throws {
        var cases: [(name: String, failures: [SnapshotDifference])] = []
        for step in comparison.pages {
            switch step {
            case .both(let a, let b):
                let name = a == b ? "page \(b + 1)" : "page \(b + 1) of \(second) (page \(a + 1) of \(first))"
                cases.append((name, comparison.differences.filter { $0.page == b && $0.referencePage == a }))
            case .onlyFirst(let a):
                cases.append(("page \(a + 1) of \(first)", comparison.differences.filter { $0.kind == .pageRemoved && $0.referencePage == a }))
            case .onlySecond(let b):
                cases.append(("page \(b + 1) of \(second)", comparison.differences.filter { $0.kind == .pageAdded && $0.page == b }))
            }
        }
        for section in ["page sizes", "metadata", "outline", "annotations", "form fields", "fonts"] {
            cases.append((section, comparison.differences.filter { $0.kind == .structure && $0.section == section }))
        }
        let suite = "\(second) against \(first)".escapedForMarkup
        let failures = cases.filter { !$0.failures.isEmpty }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"hostapp diff\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        xml += "<testsuite name=\"\(suite)\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
        for testCase in cases {
            xml += "<testcase classname=\"hostapp.diff\" name=\"\(testCase.name.escapedForMarkup)\""
            guard !testCase.failures.isEmpty else {
                xml += "/>\n"
                continue
            }
            xml += ">\n"
            for failure in testCase.failures {
                xml += "<failure type=\"\(failure.kind.rawValue)\" message=\"\(Self.heading(failure.message).escapedForMarkup)\">\(failure.message.escapedForMarkup)</failure>\n"
            }
            xml += "</testcase>\n"
        }
        xml += "</testsuite>\n</testsuites>\n"
        do {
            try Data(xml.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw RendererError(.ioFailure, "cannot write \(path): \((error as NSError).localizedDescription)")
        }
    }
}
