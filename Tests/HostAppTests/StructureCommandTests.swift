import Foundation
import RendererProvider
import Testing
import TestSupport

/// `hostapp text --format markdown|html`: the text with its structure, against the structure
/// structure.pdf was made with (`make-structure.py` writes it to structure.json): headings
/// with their levels, paragraphs joined across line breaks and a hyphen, both kinds of list,
/// the table's cells and two columns read down before across; the HTML read back by Python's
/// own parser; scans read through OCR first; what a bad request gets.
@Suite("hostapp text --format markdown|html")
struct StructureCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    /// One element as structure.json and html_structure.py write it, as comparable text.
    typealias Element = String

    /// structure.json's elements, page after page.
    static func sourceElements() throws -> [[Element]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("structure.json")))
        let pages = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["pages"] as? [[[String: Any]]])
        return pages.map { $0.map(describe) }
    }

    static func describe(_ element: [String: Any]) -> Element {
        if let level = element["heading"] as? Int { return "h\(level) \(element["text"] as! String)" }
        if let text = element["paragraph"] as? String { return "p \(text)" }
        if let text = element["code"] as? String { return "code \(text)" }
        if let kind = element["list"] as? String { return "\(kind) " + (element["items"] as! [String]).joined(separator: " | ") }
        if let rows = element["table"] as? [[String]] { return "table " + rows.map { $0.joined(separator: " | ") }.joined(separator: " / ") }
        if let description = element["figure"] as? String { return "figure \(description)" }
        if let words = element["link"] as? String { return "link \(words) -> \(element["href"] as? String ?? "")" }
        return "title \(element["title"] ?? "")"
    }

    /// tagged.json's elements (StructuredText's JSON), page after page, described as
    /// ``describe(_:)`` describes the witness's: each element after the links on it that
    /// `format` writes (Markdown: web addresses; HTML: those and the pages written out).
    static func taggedElements(_ format: String) throws -> [Element] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("tagged.json")))
        let structure = try JSONDecoder().decode(StructuredText.self, from: data)
        return structure.pages.flatMap { page in
            page.elements.enumerated().flatMap { number, element in
                page.links.filter { $0.element == number }.compactMap { link -> Element? in
                    switch link.destination {
                    case .uri(let uri): uri.hasPrefix("https:") ? "link \(link.text) -> \(uri)" : nil
                    case .page(let index, _, _): format == "html" ? "link \(link.text) -> #page-\(index + 1)" : nil
                    }
                } + [describe(element)]
            }
        }
    }

    /// One of StructuredText's elements, described as ``describe(_:)`` describes the witness's.
    static func describe(_ element: StructuredText.Element) -> Element {
        switch element {
        case .heading(let level, let text): "h\(level) \(text)"
        case .paragraph(let text): "p \(text)"
        case .code(let text): "code \(text)"
        case .list(let ordered, let items): "\(ordered ? "ordered" : "unordered") " + items.joined(separator: " | ")
        case .table(let rows): "table " + rows.map { $0.joined(separator: " | ") }.joined(separator: " / ")
        case .figure(let description): "figure \(description ?? "")"
        }
    }

    /// The elements a Markdown (.md) or HTML file holds, as html_structure.py reads them:
    /// Markdown through markdown-it-py, HTML through Python's own parser.
    static func witnessElements(_ path: String) async throws -> [Element] {
        let read = try await Tool.run("python3", [Fixtures.root.appendingPathComponent("Tests/HostAppTests/html_structure.py").path, path])
        try #require(read.status == 0, "\(read.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: read.stdout) as? [[String: Any]]).map(describe)
    }

    /// `text --format FORMAT` of `arguments`, written to a file and read by the witness.
    func elements(_ format: String, _ arguments: [String]) async throws -> [Element] {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent(format == "markdown" ? "structure.md" : "structure.html").path
        let written = try await hostapp(["text", "--format", format, "-o", output] + arguments)
        try #require(written.status == 0, "\(written.stderr)")
        return try await Self.witnessElements(output)
    }

    /// Each engine finds every heading at its level (recall and precision 1, beyond the
    /// issue's 0.9), each paragraph joined as the source wrote it, both lists, the table's
    /// cells, and reads page 2's columns down before across.
    @Test(arguments: ["mupdf", "poppler"])
    func markdownHasTheSourcesStructure(renderer: String) async throws {
        let found = try await elements("markdown", ["--renderer", renderer, Fixtures.path("structure.pdf")])
        let expected = try Self.sourceElements().joined()
        let headings = Set(found.filter { $0.hasPrefix("h") }), sourceHeadings = Set(expected.filter { $0.hasPrefix("h") })
        let matched = Double(headings.intersection(sourceHeadings).count)
        #expect(matched / Double(sourceHeadings.count) >= 0.9 && matched / Double(max(headings.count, 1)) >= 0.9, "headings \(headings)")
        #expect(found == Array(expected), "\(found)")
    }

    /// The HTML document, read by Python's html.parser, holds the same elements in `h1`-`h6`,
    /// `p`, `ul`, `ol` and `table`, with the file's name as its title.
    @Test(arguments: ["mupdf", "poppler"])
    func htmlHasTheSourcesStructure(renderer: String) async throws {
        let found = try await elements("html", ["--renderer", renderer, Fixtures.path("structure.pdf")])
        #expect(found == ["title structure"] + (try Self.sourceElements()).joined(), "\(found)")
    }

    /// The tables of structure.pdf's first page and of office.pdf (LibreOffice's, whose
    /// second row's first cell runs over three lines) have the cells pdfplumber, the second
    /// opinion on tables that shares no code with either engine, finds between their ruling
    /// lines, a cell's lines joined by spaces; the same from an engine process.
    @Test(arguments: [["--renderer", "mupdf"], ["--renderer", "poppler"], ["--renderer", "poppler", "--isolate"]], ["structure.pdf", "office.pdf"])
    func tableCellsAgreeWithPdfplumber(engine: [String], file: String) async throws {
        let script = """
            import json, sys, pdfplumber
            with pdfplumber.open(sys.argv[1]) as pdf:
                tables = [table for page in pdf.pages for table in page.extract_tables()]
                print(json.dumps([[[" ".join(cell.split()) for cell in row] for row in table] for table in tables]))
            """
        let plumber = try await Tool.run("python3", ["-c", script, Fixtures.path(file)])
        try #require(plumber.status == 0, "\(plumber.stderr)")
        let tables = try #require(try JSONSerialization.jsonObject(with: plumber.stdout) as? [[[String]]])
        #expect(tables.count == 1 && tables[0].count == 4, "\(tables)")
        let found = try await elements("markdown", engine + [Fixtures.path(file)]).filter { $0.hasPrefix("table ") }
        #expect(found == tables.map { "table " + $0.map { $0.joined(separator: " | ") }.joined(separator: " / ") }, "\(found)")
    }

    /// A tagged PDF read with Poppler, in process or isolated, gives the structure its tree
    /// states, which its layout does not show: a heading set as body text, a role-mapped
    /// title, a word tagged on its own inside a paragraph, a table without rules, a figure's
    /// description, the tree's order where it differs from the page's, and no artifact (the
    /// page numbers); with its links on their words, a web address in both formats, a page
    /// in HTML only, a `javascript:` address in neither. MuPDF reads no structure tree: its layout reading takes that heading
    /// for a paragraph.
    @Test(arguments: [["--renderer", "poppler"], ["--renderer", "poppler", "--isolate"]])
    func aTaggedDocumentGivesItsTreesStructure(options: [String]) async throws {
        let markdown = try await elements("markdown", options + [Fixtures.path("tagged.pdf")])
        #expect(markdown == (try Self.taggedElements("markdown")), "\(markdown)")
        let html = try await elements("html", options + [Fixtures.path("tagged.pdf")])
        #expect(html == ["title tagged"] + (try Self.taggedElements("html")), "\(html)")
        let layout = try await elements("markdown", ["--renderer", "mupdf", Fixtures.path("tagged.pdf")])
        #expect(layout.contains("p Opening hours") && !layout.contains("h2 Opening hours"), "\(layout)")
    }

    /// A word-processor document LibreOffice exported (make-office.py writes it and office.json,
    /// its structure): untagged, each engine finds its headings at their levels, its lists,
    /// its table's cells, its picture (a figure in its place) and its link from the layout;
    /// tagged, Poppler reads the same from its structure tree, the figure's description too,
    /// the bullets and numbers LibreOffice leaves inside its list items' bodies taken off and
    /// its text's non-ASCII characters intact. Heading recall and
    /// precision are 1, beyond the issue's 0.9.
    @Test(arguments: [["mupdf", "office.pdf"], ["poppler", "office.pdf"], ["poppler", "office-tagged.pdf"], ["mupdf", "office-tagged.pdf"]])
    func anOfficeDocumentGivesItsWritersStructure(case: [String]) async throws {
        struct Source: Decodable {
            var elements: [StructuredText.Element]
            var link: [String: String]
        }
        let source = try JSONDecoder().decode(Source.self, from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("office.json"))))
        // Read from the layout, the picture is a figure without its description, which only
        // the structure tree holds.
        let fromTree = `case` == ["poppler", "office-tagged.pdf"]
        let expected = source.elements.map { element -> Element in
            if case .figure = element, !fromTree { return Self.describe(.figure(alternateText: nil)) }
            return Self.describe(element)
        }.flatMap { element in
            element.contains(source.link["text"]!) ? ["link \(source.link["text"]!) -> \(source.link["uri"]!)", element] : [element]
        }
        let found = try await elements("markdown", ["--renderer", `case`[0], Fixtures.path(`case`[1])])
        #expect(found == expected, "\(found)")
    }

    /// A scanned page has no text of its own; with --ocr, its structure comes from the words
    /// recognised and their estimated sizes: the scan of the R manual's pages 7-8 gives the
    /// same headings, at the same levels, as those pages' own text, and paragraphs of whole
    /// lines.
    @Test func aScanIsReadBeforeItsStructureIsFound() async throws {
        let plain = try await elements("markdown", [ScannedPages.path])
        #expect(plain.isEmpty, "\(plain)")
        let elements = try await elements("markdown", ["--ocr", ScannedPages.path])
        let source = try await self.elements("markdown", ["--pages", "\(ScannedPages.pages.first)-\(ScannedPages.pages.last)", ScannedPages.source])
        let headings = elements.filter { $0.hasPrefix("h") }
        #expect(headings == source.filter { $0.hasPrefix("h") }, "\(headings)")
        #expect(headings.count >= 4 && headings.first == "h1 Preface", "\(headings)")
        let paragraphs = elements.filter { $0.hasPrefix("p ") }
        #expect(paragraphs.contains { $0.hasPrefix("p This introduction to R is derived") && $0.hasSuffix("expanded some of the material.") }, "\(paragraphs)")
    }

    /// Text a page could hold that Markdown or HTML would read as markup (heading and list
    /// starts, emphasis, links, tags, a table's pipe, a code fence inside code) comes back
    /// from both documents as the same text, read by markdown-it-py and Python's parser; a
    /// link keeps its address whatever characters it holds, a `!` before it does not make
    /// it an image, and an address a reader should not follow (`javascript:`, one that
    /// would end Markdown's `<...>`, a page not written out) leaves its words plain.
    @Test func markupEscapesWhatAPageHolds() async throws {
        let hostile = "# <script>alert('x')</script> *bold* _it_ [link](javascript:x) & `code` \\ | pipe"
        let elements: [StructuredText.Element] = [
            .heading(level: 2, text: hostile), .paragraph("1. not a list " + hostile), .paragraph("- not a list either"),
            .paragraph("+ nor this"), .list(ordered: false, items: ["> not a quote", "2) item"]),
            .table(rows: [["a | b", hostile], ["<td>", "</table>"]]), .code("```\n<b>not bold</b>\n```"),
            .figure(alternateText: hostile), .figure(alternateText: nil),
            .paragraph("Look!here and there"), .paragraph("evil one two"),
        ]
        let links = [
            StructuredText.Link(element: 9, start: 5, text: "here", destination: .uri("https://example.org/a_b*c(d)?q=x&y=~1")),
            StructuredText.Link(element: 10, start: 0, text: "evil", destination: .uri("javascript:alert(1)")),
            StructuredText.Link(element: 10, start: 5, text: "one", destination: .uri("https://x.org/a>b")),
            StructuredText.Link(element: 10, start: 9, text: "two", destination: .page(index: 5, point: nil)),
        ]
        let structure = StructuredText(pages: [StructuredText.Page(index: 0, elements: elements, source: .layout, links: links)])
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = [
            "h2 \(hostile)", "p 1. not a list \(hostile)", "p - not a list either", "p + nor this", "unordered > not a quote | 2) item",
            "table a | b | \(hostile) / <td> | </table>", "code ```\n<b>not bold</b>\n```",
            "figure \(hostile)", "figure ",
            "link here -> https://example.org/a_b*c(d)?q=x&y=~1", "p Look!here and there", "p evil one two",
        ]
        for (name, text) in [("hostile.md", structure.markdown), ("hostile.html", structure.html(title: "<title>"))] {
            let path = folder.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let found = try await Self.witnessElements(path)
            #expect(found == (name.hasSuffix(".html") ? ["title <title>"] : []) + expected, "\(name): \(found)\n\(text)")
        }
    }

    /// Options that cannot go together are refused before a page is read, and nothing is
    /// written.
    @Test func badRequestsAreRefused() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(arguments: [String], message: String)] = [
            (["text", "--format", "markdown", "--json", Fixtures.path("structure.pdf")], "--json is --format json"),
            (["text", "--format", "html", Fixtures.path("structure.pdf"), "-o", folder.path + "/"], "writes one document"),
            (["text", "--format", "yaml", Fixtures.path("structure.pdf")], "yaml"),
        ]
        for (arguments, message) in cases {
            let result = try await hostapp(arguments)
            #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result.status) \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
