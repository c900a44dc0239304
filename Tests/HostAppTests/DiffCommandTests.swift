import Foundation
import Testing
import TestSupport

/// `hostapp diff`: one document against another on the diff pairs, whose script states what
/// each variant changes; its JSON, JUnit XML and HTML read by independent readers.
@Suite("hostapp diff")
struct DiffCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    static func pair(_ name: String) -> String { Fixtures.path("DiffPairs/\(name).pdf") }

    func json(_ variant: String, _ extra: [String] = []) async throws -> (status: Int32, json: [String: Any]) {
        let result = try await hostapp(["diff", Self.pair("base"), Self.pair(variant), "--json"] + extra)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stderr)")
        return (result.status, json)
    }

    static func differences(_ json: [String: Any]) -> [[String: Any]] { json["differences"] as? [[String: Any]] ?? [] }

    @Test func theSameDocumentMatchesAndExitsZero() async throws {
        let result = try await hostapp(["diff", Self.pair("base"), Self.pair("same")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text.hasSuffix("The documents match.\n"))
        // An edge moved by less than a pixel matches too, unless every pixel must.
        #expect(try await hostapp(["diff", Self.pair("base"), Self.pair("nudged")]).status == 0)
        let exact = try await json("nudged", ["--exact"])
        #expect(exact.status == 1)
        #expect(Self.differences(exact.json).map { $0["differingPixels"] as? Int } == [80])
    }

    @Test func aChangedWordIsFoundOnItsPageAsPdftotextSeesIt() async throws {
        let (status, json) = try await json("word")
        #expect(status == 1)
        let differences = Self.differences(json)
        #expect(differences.map { $0["kind"] as? String } == ["pixels", "text"])
        #expect(differences.allSatisfy { $0["firstPageIndex"] as? Int == 1 && $0["secondPageIndex"] as? Int == 1 })
        // pdftotext's texts of page 2 differ in the same line.
        let old = try await Tool.run("pdftotext", ["-f", "2", "-l", "2", Self.pair("base"), "-"]).text.split(separator: "\n")
        let new = try await Tool.run("pdftotext", ["-f", "2", "-l", "2", Self.pair("word"), "-"]).text.split(separator: "\n")
        let witness = zip(old, new).filter { $0 != $1 }
        #expect(witness.count == 1)
        #expect(differences[1]["changedLines"] as? [String] == ["-" + String(witness[0].0), "+" + String(witness[0].1)])
    }

    @Test func anInsertedPageIsOneDifferenceAndTheRestArePaired() async throws {
        let (status, json) = try await json("inserted-page")
        #expect(status == 1)
        let pages = try #require(json["pages"] as? [[String: Any]])
        #expect(pages.map { [$0["first"] as? Int, $0["second"] as? Int] } == [[0, 0], [nil, 1], [1, 2], [2, 3]])
        let kinds = Self.differences(json).map { [$0["kind"] as? String, $0["section"] as? String] }
        #expect(kinds == [["page-added", nil], ["structure", "page sizes"]])
        #expect(Self.differences(json).first?["message"] as? String == "page 2 of inserted-page.pdf is not in base.pdf")
    }

    @Test func metadataFontsAnnotationsAndFormValuesAreCompared() async throws {
        let retitled = Self.differences(try await json("retitled").json)
        #expect(retitled.map { $0["section"] as? String } == ["metadata"])
        let annotated = Self.differences(try await json("engine-specific").json)
        #expect(annotated.map { $0["kind"] as? String } == ["pixels", "structure"])
        #expect(annotated.last?["section"] as? String == "annotations")
        // Form values: forms.pdf filled in by hostapp's own form command, then diffed.
        let folder = try Tool.temporaryDirectory()
        let filled = folder.appendingPathComponent("filled.pdf").path
        let fill = try await hostapp(["forms", "fill", Fixtures.path("forms.pdf"), "--set", "name=Grace", "-o", filled])
        #expect(fill.status == 0, "\(fill.stderr)")
        let forms = try await hostapp(["diff", Fixtures.path("forms.pdf"), filled, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: forms.stdout) as? [String: Any])
        let sections = Self.differences(json).compactMap { $0["section"] as? String }
        #expect(sections.contains("form fields"))
        let lines = Self.differences(json).first { $0["section"] as? String == "form fields" }?["changedLines"] as? [String] ?? []
        #expect(lines.contains { $0.hasPrefix("+") && $0.contains("Grace") })
    }

    @Test func pixelCountsAreImageMagicksOnTheReportsImages() async throws {
        let folder = try Tool.temporaryDirectory().appendingPathComponent("report")
        let result = try await hostapp(["diff", Self.pair("base"), Self.pair("colour"), "--html", folder.path, "--json"])
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let ours = try #require(Self.differences(json).first?["differingPixels"] as? Int)
        let compare = try await Tool.run("compare", ["-metric", "AE", "-fuzz", "6.3%", folder.path + "/page-001-first.png", folder.path + "/page-001-second.png", "null:"])
        let counted: String = compare.stderr.split(separator: " ").first.map(String.init) ?? ""
        let witness = try #require(Int(counted), "\(compare.stderr)")
        let drift: Int = abs(ours - witness)
        #expect(drift <= witness / 50, "\(ours) against ImageMagick's \(witness)")
        // The page: side by side, overlaid under a slider, with the difference image.
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("<input type=\"range\""))
        for image in ["page-001-first.png", "page-001-second.png", "page-001-difference.png"] {
            #expect(html.contains("src=\"\(image)\""))
            #expect(FileManager.default.fileExists(atPath: folder.path + "/" + image))
        }
        #expect(try await Tool.run("python3", ["-c", "import html.parser,sys; p=html.parser.HTMLParser(); p.feed(open(sys.argv[1]).read()); p.close()", folder.path + "/index.html"]).status == 0)
    }

    @Test func junitXMLHasACaseAPageAndAnAspect() async throws {
        let file = try Tool.temporaryDirectory().appendingPathComponent("diff.xml").path
        let result = try await hostapp(["diff", Self.pair("base"), Self.pair("word"), "--junit", file])
        #expect(result.status == 1)
        // Python's own XML reader counts the cases and failures.
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            suite = root.find("testsuite")
            cases = suite.findall("testcase")
            failed = [c.get("name") for c in cases if c.find("failure") is not None]
            print(len(cases), suite.get("tests"), suite.get("failures"), ",".join(failed), sep="|")
            """
        let counts = try await Tool.run("python3", ["-c", script, file])
        #expect(counts.text == "9|9|1|page 2\n", "\(counts.stderr)")
    }

    @Test func badInputGetsTheUsualExitCodes() async throws {
        let missing = try await hostapp(["diff", Self.pair("base"), "/nonexistent/other.pdf"])
        #expect(missing.status == 74, "\(missing.stderr)")
        let text = try await hostapp(["diff", Self.pair("base"), Fixtures.path("not-a-pdf.pdf")])
        #expect(text.status == 65, "\(text.stderr)")
        let share = try await hostapp(["diff", Self.pair("base"), Self.pair("same"), "--max-differing", "2"])
        #expect(share.status == 64)
        let threshold = try await hostapp(["diff", Self.pair("base"), Self.pair("same"), "--channel-threshold", "-1"])
        #expect(threshold.status == 64)
        // A report folder that cannot be made: an I/O error, nothing half-written elsewhere.
        let blocked = try Tool.temporaryDirectory().appendingPathComponent("file")
        try Data().write(to: blocked)
        let report = try await hostapp(["diff", Self.pair("base"), Self.pair("word"), "--html", blocked.path + "/report"])
        #expect(report.status == 74, "\(report.stderr)")
    }
}
