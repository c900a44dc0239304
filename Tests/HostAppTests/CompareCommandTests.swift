import Foundation
import Testing
import TestSupport

/// `hostapp compare`: the table, JSON, exit codes and the HTML report.
@Suite("hostapp compare")
struct CompareCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    @Test func passingDocumentExitsZeroWithATable() async throws {
        let result = try await hostapp(["compare", Fixtures.path("rotated.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.text.split(separator: "\n")
        #expect(lines.first == "poppler against mupdf, 100 dpi")
        #expect(lines.filter { $0.hasSuffix("pass") }.count == 4)
        #expect(lines.last == "PASS: 4 pages compared, 0 failed")
    }

    /// The three engines on a PDF only two of them draw alike (a Square annotation without an
    /// appearance stream, which Ghostscript leaves out): the odd one is named.
    @Test func threeRenderersNameTheOddOneOut() async throws {
        let file = Fixtures.path("DiffPairs/engine-specific.pdf")
        let result = try await hostapp(["compare", "--renderers", "mupdf,poppler,ghostscript", "--dpi", "72", file])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.text.contains("Page 1: ghostscript is the odd one out; the others agree"))
        let agreeing = try await hostapp(["compare", "--renderers", "mupdf,poppler,ghostscript", "--dpi", "72", Fixtures.path("DiffPairs/base.pdf")])
        #expect(agreeing.status == 0, "\(agreeing.text)")
    }

    @Test func failingDocumentExitsOne() async throws {
        let result = try await hostapp(["compare", Fixtures.path("poppler-only.pdf")])
        #expect(result.status == 1)
        #expect(result.text.contains("mupdf cannot open the document, poppler can"))
        let strict = try await hostapp(["compare", "--max-differing", "0", "--pages", "2", Fixtures.path("search.pdf")])
        #expect(strict.status == 1 && strict.text.contains("FAIL: 1 page compared, 1 failed (page 2)"))
    }

    /// `--no-annotations` compares the pages' content alone: the engines' different
    /// annotation appearances no longer count in the pixel figures, and the output says so.
    @Test func withoutAnnotationsComparesTheContentAlone() async throws {
        func differingShare(_ extra: [String]) async throws -> (Double, [String: Any]) {
            let result = try await hostapp(["compare", Fixtures.path("annotations.pdf"), "--json"] + extra)
            let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            let candidate = try #require((json["candidates"] as? [[String: Any]])?.first)
            let page = try #require((candidate["pages"] as? [[String: Any]])?.first)
            let pixels = try #require(page["pixels"] as? [String: Any])
            return (try #require(pixels["differingShare"] as? Double), json)
        }
        let (with, withJSON) = try await differingShare([])
        let (without, withoutJSON) = try await differingShare(["--no-annotations"])
        #expect(withJSON["annotationsDrawn"] as? Bool == true && withoutJSON["annotationsDrawn"] as? Bool == false)
        #expect(without < with, "content alone: \(without) of the pixels differ, with annotations \(with)")
        let table = try await hostapp(["compare", Fixtures.path("annotations.pdf"), "--no-annotations"])
        #expect(table.text.hasPrefix("poppler against mupdf, 100 dpi, without annotations\n"))
    }

    @Test func infoShowsTheEngineAutoChose() async throws {
        let result = try await hostapp(["info", Fixtures.path("poppler-only.pdf")])
        #expect(result.status == 0)
        #expect(result.text.contains("Renderer:     poppler"))
    }

    /// The report's images exist, its figures are the JSON's, failing pages come first, and
    /// the figures agree with an independent computation (numpy, in independent_metrics.py).
    @Test func reportMatchesJSONAndAnIndependentComputation() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Strict enough that the first page fails and the others pass.
        let arguments = ["compare", Fixtures.samplePath, "--max-differing", "0.0002", "--report", directory.path, "--json"]
        let result = try await hostapp(arguments)
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let candidate = try #require((json["candidates"] as? [[String: Any]])?.first)
        let pages = try #require(candidate["pages"] as? [[String: Any]])
        let passed = pages.map { $0["passed"] as? Bool }
        #expect(passed == [false, true, true])

        let html = try String(contentsOf: directory.appendingPathComponent("index.html"), encoding: .utf8)
        let images = html.matches(of: /src="([^"]+)"/).map { String($0.output.1) }
        #expect(images.count == 9)
        for image in images {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(image).path), "\(image)")
        }
        let order = html.matches(of: /data-page="(\d+)"/).map { Int($0.output.1)! }
        #expect(order == [1, 2, 3])
        let cells = html.matches(of: /data-name="([a-z-]+)" data-value="([^"]+)"/).map { (String($0.output.1), Double($0.output.2)!) }
        let keys = ["differing-share": "differingShare", "shifted-differing-share": "shiftedDifferingShare",
                    "shifted-differing-share-of-ink": "shiftedDifferingShareOfInk", "psnr": "psnr"]
        var expected: [(String, Double)] = []
        for page in pages {
            let pixels = page["pixels"] as! [String: Any]
            for name in ["differing-share", "shifted-differing-share", "shifted-differing-share-of-ink", "psnr"] {
                expected.append((name, pixels[keys[name]!] as! Double))
            }
            expected.append(("text-agreement", page["textAgreement"] as! Double))
        }
        #expect(cells.map(\.0) == expected.map(\.0))
        // Equal up to how the last digit of a double is printed and parsed.
        #expect(zip(cells, expected).allSatisfy { abs($0.1 - $1.1) <= 1e-12 * max(1, abs($1.1)) }, "\(cells) vs \(expected)")

        let script = Fixtures.root.appendingPathComponent("Tests/HostAppTests/independent_metrics.py").path
        let independent = try await Tool.run("python3", [script, directory.path, "poppler", "1", "2", "3"])
        #expect(independent.status == 0, "\(independent.stderr)")
        let figures = independent.text.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        for (page, theirs) in zip(pages, figures) {
            let ours = page["pixels"] as! [String: Any]
            for key in ["differingShare", "shiftedDifferingShare", "psnr", "inkedShare", "shiftedDifferingShareOfInk"] {
                let a = ours[key] as! Double, b = theirs[key] as! Double
                #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), "page \(theirs["page"]!): \(key) \(a) vs \(b)")
            }
        }
    }
}
