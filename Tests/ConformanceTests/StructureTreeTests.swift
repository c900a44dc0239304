import Foundation
import RendererProvider
import Testing
import TestSupport

/// Tagged structure trees (`Document.taggedStructure(pages:)`, `Document.structuredText`):
/// Poppler gives tagged.pdf the structure its script states (tagged.json), its links on
/// their words, and reads only the pages asked for; an untagged document, and every document under MuPDF, which reads no
/// structure tree, is read from its layout; a hostile tree is cut, never followed.
@Suite("Tagged structure trees")
struct StructureTreeTests {
    /// The structure make-tagged.py states.
    static func stated() throws -> StructuredText {
        try JSONDecoder().decode(StructuredText.self, from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("tagged.json"))))
    }

    @Test func popplerGivesTheTreesStructure() throws {
        let document = try Fixtures.open("tagged.pdf", backend: "poppler")
        let stated = try Self.stated()
        #expect(try document.structuredText() == stated)
        // The tree's structure alone: links are placed by structuredText.
        var second = stated.pages[1]
        second.links = []
        #expect(try document.taggedStructure(pages: [1]) == [second])
        #expect(try document.structuredText(pages: [1, 0]).pages == [stated.pages[1], stated.pages[0]])
        #expect(throws: RendererError.self) { try document.structuredText(pages: [2]) }
    }

    /// The language the catalog declares (`/Lang`), as pypdf reads it: `en-GB` for
    /// tagged.pdf, none for structure.pdf; with both engines, and a hostile tag refused.
    @Test(arguments: ["mupdf", "poppler"])
    func theDocumentsLanguageIsTheCatalogs(backend: String) async throws {
        let script = "import sys, pypdf; print(pypdf.PdfReader(sys.argv[1]).trailer['/Root'].get('/Lang', ''))"
        for (name, expected) in [("tagged.pdf", "en-GB"), ("structure.pdf", "")] {
            let witness = try await Tool.run("python3", ["-c", script, Fixtures.path(name)])
            #expect(witness.text.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(name): \(witness.stderr)")
            #expect(try Fixtures.open(name, backend: backend).info().language == (expected.isEmpty ? nil : expected), "\(name)")
        }
        let content = "BT ET"
        let hostile = HandMadePDF.data([
            "<< /Type /Catalog /Pages 2 0 R /Lang (en\"><script>) >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ])
        #expect(try await Fixtures.conformanceRegistry.open(.memory(hostile), renderer: .id(backend)).info().language == nil)
    }

    @Test(arguments: ["mupdf", "poppler"])
    func anUntaggedDocumentIsReadFromItsLayout(backend: String) throws {
        let document = try Fixtures.open("structure.pdf", backend: backend)
        #expect(try document.taggedStructure(pages: [0, 1]).isEmpty)
        #expect(try document.structuredText().pages.map(\.source) == [.layout, .layout])
    }

    @Test func muPDFReadsNoStructureTree() throws {
        let document = try Fixtures.open("tagged.pdf", backend: "mupdf")
        #expect(try document.taggedStructure(pages: [0, 1]).isEmpty)
        let structure = try document.structuredText()
        #expect(structure.pages.map(\.source) == [.layout, .layout])
        #expect(structure.pages[0].elements.contains(.paragraph("Opening hours")), "\(structure.pages[0].elements)")
        // Links come from the annotations, whatever gives the structure.
        #expect(structure.pages[0].links.map(\.text) == ["staff"] && structure.pages[1].links.count == 2, "\(structure.pages.map(\.links))")
    }

    /// A one-page PDF that shows "deep" in marked content 0, with `elements` (objects 7 on)
    /// under a structure tree root whose kids are `rootKids`.
    static func hostile(_ elements: [String], rootKids: String = "7 0 R") -> Data {
        let content = "/P << /MCID 0 >> BDC BT /F1 12 Tf 72 700 Td (deep) Tj ET EMC"
        return HandMadePDF.data([
            "<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 5 0 R /MarkInfo << /Marked true >> >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /StructParents 0 /Resources << /Font << /F1 6 0 R >> >> >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            "<< /Type /StructTreeRoot /K [\(rootKids)] >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ] + elements)
    }

    /// Trees no writer makes: 10,000 elements each inside the last (the text at the bottom,
    /// beyond ``StructureElement/maximumDepth``), two elements each holding the other, and
    /// elements pointing at marked content and pages that do not exist. Each is read without
    /// a crash or a hang; what the tree cannot give is read from the layout.
    @Test(arguments: ["deep", "cycle", "dangling"])
    func aHostileTreeIsCutNotFollowed(shape: String) throws {
        let data: Data
        let source: StructuredText.Source
        switch shape {
        case "deep":
            data = Self.hostile((0..<10_000).map { level in
                "<< /Type /StructElem /S /Div /P \(level == 0 ? 5 : 6 + level) 0 R /Pg 3 0 R /K [\(level == 9_999 ? "0" : "\(8 + level) 0 R")] >>"
            })
            source = .layout
        case "cycle":
            data = Self.hostile([
                "<< /Type /StructElem /S /P /P 5 0 R /Pg 3 0 R /K [8 0 R] >>",
                "<< /Type /StructElem /S /Span /P 7 0 R /Pg 3 0 R /K [7 0 R 0] >>",
            ])
            source = .structureTree
        default:
            data = Self.hostile([
                "<< /Type /StructElem /S /P /P 5 0 R /Pg 3 0 R /K [7] >>",
                "<< /Type /StructElem /S /H1 /P 5 0 R /Pg 4 0 R /K [0] >>",
                "<< /Type /StructElem /S /Figure /P 5 0 R /Pg 99 0 R /Alt (nowhere) >>",
            ], rootKids: "7 0 R 8 0 R 9 0 R")
            source = .layout
        }
        let document = try Fixtures.conformanceRegistry.open(.memory(data), renderer: .id("poppler"))
        let structure = try document.structuredText()
        #expect(structure.pages.map(\.source) == [source] && structure.pages[0].elements == [.paragraph("deep")], "\(structure)")
    }
}
