import Foundation
import RendererProvider
import Testing
import TestSupport

/// `hostapp text`, `search`, `outline`, `links` and `fonts`, run as a user runs them.
@Suite("hostapp text, search, outline, links and fonts")
struct NavigationCommandTests {
    func hostapp(_ arguments: String...) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    @Test(arguments: ["mupdf", "poppler"])
    func textPrintsPagesSeparatedByFormFeeds(backend: String) async throws {
        let result = try await hostapp("--renderer", backend, "text", Fixtures.path("text.pdf"), "--pages", "2-3")
        #expect(result.status == 0)
        let pages = result.text.split(separator: "\u{0C}").map { Fixtures.normalizedWhitespace(String($0)) }
        #expect(pages == ["Renderer provider fixture page two", "Third page"])
    }

    @Test func textJSONGivesWordsWithBoxes() async throws {
        let result = try await hostapp("text", "--json", "--labels", "--pages", "9", Fixtures.path("labels.pdf"))
        #expect(result.status == 0)
        let pages = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(pages.first?["page"] as? String == "AA")
        let words = try #require(pages.first?["words"] as? [[String: Any]])
        #expect(words.map { $0["text"] as? String } == ["Page", "index", "8"])
        #expect(abs((words[0]["x"] as? Double ?? 0) - 20) < 1)
    }

    /// A row per font, as pdffonts prints them; JSON holds the same; a format without font
    /// dictionaries is refused in words, with a failing status.
    @Test(arguments: ["mupdf", "poppler"])
    func fontsPrintsARowPerFont(backend: String) async throws {
        let table = try await hostapp("--renderer", backend, "fonts", Fixtures.path("fonts.pdf"))
        #expect(table.status == 0)
        let rows = table.text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.first == ["name", "kind", "emb", "sub"])
        #expect(rows.dropFirst().map { $0.first ?? "" } == ["Helvetica", "ABCDEF+Tiny", "GHIJKL+Tiny", "[none]", "Courier", "Times-Bold"])
        #expect(rows.dropFirst(2).first == ["ABCDEF+Tiny", "trueType", "yes", "yes"])
        let json = try await JSONSerialization.jsonObject(with: try hostapp("--renderer", backend, "fonts", "--json", Fixtures.path("fonts.pdf")).stdout) as? [[String: Any]]
        #expect(json?.map { $0["isEmbedded"] as? Bool } == [false, true, true, true, false, false])
        let book = try await hostapp("fonts", Fixtures.path("book.epub"))
        #expect(book.status != 0 && book.stderr.contains("fonts"), "\(book.stderr)")
    }

    @Test(arguments: ["mupdf", "poppler"])
    func searchPrintsHitsAndCount(backend: String) async throws {
        let all = try await hostapp("--renderer", backend, "search", Fixtures.path("search.pdf"), "apple")
        #expect(all.status == 0)
        #expect(all.text.hasSuffix("6 hits\n"))
        #expect(all.text.split(separator: "\n").filter { $0.hasPrefix("page 1: 72,") }.count == 1)
        let exact = try await hostapp("--renderer", backend, "search", Fixtures.path("search.pdf"), "apple", "--case-sensitive", "--whole-word")
        #expect(exact.text.hasSuffix("2 hits\n"))
        let none = try await hostapp("--renderer", backend, "search", Fixtures.path("search.pdf"), "kiwi")
        #expect(none.status == 1 && none.text == "0 hits\n", "nothing found exits 1, as grep does")
        let json = try await JSONSerialization.jsonObject(with: try hostapp("search", "--json", "--pages", "2", Fixtures.path("search.pdf"), "APPLE").stdout) as? [String: Any]
        #expect(json?["count"] as? Int == 2)
    }

    /// long.pdf: page i says "Page i"; "Page 1" begins pages 1, 10-19 and 100.
    @Test(arguments: ["mupdf", "poppler"])
    func searchOverSeveralJobsPrintsWhatOnePrints(backend: String) async throws {
        let one = try await hostapp("--renderer", backend, "search", Fixtures.path("long.pdf"), "Page 1", "--jobs", "1")
        let three = try await hostapp("--renderer", backend, "search", Fixtures.path("long.pdf"), "Page 1", "--jobs", "3")
        #expect(one.status == 0 && three.status == 0)
        #expect(one.text.hasSuffix("12 hits\n"))
        let firstLines: [String] = one.text.split(separator: "\n").prefix(2).map { String($0.prefix(8)) }
        #expect(firstLines == ["page 1: ", "page 10:"])
        #expect(three.stdout == one.stdout)
    }

    @Test(arguments: ["mupdf", "poppler"])
    func outlineIsAnIndentedTree(backend: String) async throws {
        let result = try await hostapp("--renderer", backend, "outline", Fixtures.path("outline.pdf"))
        #expect(result.status == 0)
        #expect(result.text == """
            v Chapter 1  ->  page 1 at 0,0
              - Section 1.1  ->  page 2 at 72,292
              - Section 1.2  ->  page 3 at 0,392
            > Chapter 2  ->  page 4
              - Section 2.1  ->  page 4 at 0,192
            - Website  ->  https://example.org/

            """)
        let circular = try await hostapp("--renderer", backend, "outline", Fixtures.path("outline-cycle.pdf"))
        #expect(circular.status == 0 && circular.text.split(separator: "\n").count == 4)
    }

    @Test func outlineWithLabelsAndJSON() async throws {
        let json = try await JSONSerialization.jsonObject(with: try hostapp("outline", "--json", Fixtures.path("outline.pdf")).stdout) as? [[String: Any]]
        #expect(json?.map { $0["title"] as? String } == ["Chapter 1", "Chapter 2", "Website"])
        let none = try await hostapp("outline", Fixtures.path("text.pdf"))
        #expect(none.status == 0 && none.text == "(no outline)\n")
    }

    @Test(arguments: ["mupdf", "poppler"])
    func linksListsAreasAndTargets(backend: String) async throws {
        let result = try await hostapp("--renderer", backend, "links", Fixtures.path("outline.pdf"))
        #expect(result.status == 0)
        #expect(result.text == """
            page 1: 72,72 128x20  ->  page 4 at 0,0
            page 1: 72,122 178x20  ->  https://example.org/docs
            page 1: 72,172 128x20  ->  page 3 at 0,392

            """)
    }

    @Test func pageSelectionErrorsAreUsageErrors() async throws {
        let result = try await hostapp("text", Fixtures.path("text.pdf"), "--pages", "2-x")
        #expect(result.status == 64)
        #expect(result.stderr.contains("'2-x' is not a page range"))
        // text.pdf has 3 pages (pdfinfo): a range wholly past them names its first page.
        for (pages, missing) in [("5-", "page 5"), ("9", "page 9"), ("4-7", "page 4")] {
            let past = try await hostapp("text", Fixtures.path("text.pdf"), "--pages", pages)
            #expect(past.status == 64)
            #expect(past.stderr.contains("\(missing) does not exist: the document has 3 pages"), "\(pages): \(past.stderr)")
        }
    }

    /// A range that starts inside the document and runs past it is read up to the last
    /// page, as mutool draw and pdftotext read it, with a note.
    @Test func aRangeRunningPastTheEndIsCutAtTheLastPage() async throws {
        let file = Fixtures.path("text.pdf")
        let cut = try await hostapp("text", file, "--pages", "2-30")
        #expect(cut.status == 0)
        #expect(cut.stderr.contains("note: pages 4-30 of '2-30' do not exist: the document has 3 pages; reading 2-3"), "\(cut.stderr)")
        #expect(await cut.text == (try hostapp("text", file, "--pages", "2-3")).text)
        let pdftotext = try await Tool.run("pdftotext", ["-f", "2", "-l", "30", file, "-"])
        #expect(pdftotext.status == 0 && pdftotext.text.contains("Third page"), "pdftotext reads the same range the same way")
    }
}

extension NavigationCommandTests {
    /// `outline set` writes what `outline show --json` printed, changed; `links add` and
    /// `links remove` change one page's links; bad input changes nothing.
    @Test(arguments: ["mupdf", "poppler"])
    func outlinesAndLinksAreWrittenFromTheCommandLine(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("copy.pdf").path
        try FileManager.default.copyItem(atPath: Fixtures.path("outline.pdf"), toPath: copy)
        let shown = try await hostapp("--renderer", backend, "outline", "show", "--json", copy)
        var items = try JSONDecoder().decode([OutlineItem].self, from: shown.stdout)
        items[0].title = "Renamed"
        items[0].isBold = true
        items.append(OutlineItem(title: "Last page", destination: .page(index: 3, point: PagePoint(x: 0, y: 100))))
        let json = folder.appendingPathComponent("outline.json")
        try JSONEncoder().encode(items).write(to: json)
        let set = try await hostapp("--renderer", backend, "outline", "set", copy, json.path)
        #expect(set.status == 0 && set.text.contains("outline written: 7 items"), "\(set.stderr)")
        let tree = try await hostapp("--renderer", backend, "outline", copy)
        #expect(tree.text.hasPrefix("v Renamed  ->  page 1") && tree.text.contains("- Last page  ->  page 4 at 0,100"), "\(tree.text)")
        // A minimal file: only titles and one page destination (index from 0).
        try Data(#"[{"title": "Only", "destination": {"kind": "page", "index": 1}}]"#.utf8).write(to: json)
        #expect(try await hostapp("--renderer", backend, "outline", "set", copy, json.path).status == 0)
        #expect(try await hostapp("--renderer", backend, "outline", copy).text == "- Only  ->  page 2\n")
        // The file may be a pipe (`/dev/stdin` here, as `<(…)` gives one), whose length is 0.
        let piped = try await Tool.run(
            HostAppTests.executable, ["--renderer", backend, "outline", "set", copy, "/dev/stdin"],
            input: Data(#"[{"title": "Piped", "destination": {"kind": "page", "index": 2}}]"#.utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try await hostapp("--renderer", backend, "outline", copy).text == "- Piped  ->  page 3\n")
        // Bad files: not JSON, a missing title, a page the document lacks. The file is kept as it was.
        let kept = try Data(contentsOf: URL(fileURLWithPath: copy))
        for bad in ["{", #"[{"destination": null}]"#, #"[{"title": "x", "destination": {"kind": "page", "index": 9}}]"#] {
            try Data(bad.utf8).write(to: json)
            let refused = try await hostapp("--renderer", backend, "outline", "set", copy, json.path)
            #expect(refused.status != 0 && !refused.stderr.isEmpty, "\(bad)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == kept)
        // Links.
        let added = try await hostapp("--renderer", backend, "links", "add", copy, "--page", "2", "--rect", "10,20,100,15", "--uri", "https://example.org/cli")
        #expect(added.status == 0, "\(added.stderr)")
        let jump = try await hostapp("--renderer", backend, "links", "add", copy, "--page", "2", "--rect", "10,50,100,15", "--to-page", "4", "--at", "0,72")
        #expect(jump.status == 0, "\(jump.stderr)")
        let listed = try await hostapp("--renderer", backend, "links", "--pages", "2", copy)
        #expect(listed.text.contains("https://example.org/cli") && listed.text.contains("page 4 at 0,72"), "\(listed.text)")
        let removed = try await hostapp("--renderer", backend, "links", "remove", copy, "--page", "2", "--rect", "10,20,100,15")
        #expect(removed.status == 0 && removed.text.contains("removed 1 link from page 2"))
        #expect(try await hostapp("--renderer", backend, "links", "list", "--pages", "2", copy).text.contains("https://example.org/cli") == false)
        let both = try await hostapp("links", "add", copy, "--page", "1", "--rect", "0,0,1,1", "--uri", "https://x.org/", "--to-page", "2")
        #expect(both.status == 64)
        let none = try await hostapp("links", "remove", copy, "--page", "1", "--rect", "500,500,1,1")
        #expect(none.status != 0 && none.stderr.contains("no link"))
    }
}
