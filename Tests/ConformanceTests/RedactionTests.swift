import Foundation
import RendererProvider
import Testing
import TestSupport

/// Redaction through MuPDF: the content under a mark removed from the file, as the engines'
/// own text tools and the drawn pixels show; Poppler says unsupported.
@Suite("Redaction")
struct RedactionTests {
    /// The area of `phrase` on the page at `index`, a point inside its glyphs on each side.
    static func area(of phrase: String, in document: Document, pageAt index: Int = 0) throws -> PageRect {
        let bounds = try #require(try document.search(phrase, pageAt: index).first).bounds
        return PageRect(x: bounds.origin.x + 1, y: bounds.origin.y + 1, width: bounds.size.width - 2, height: bounds.size.height - 2)
    }

    @Test func textUnderAMarkIsGoneFromTheFile() async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let output = path + ".redacted.pdf"
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id("mupdf"))
        let mark = try document.markRedaction(try Self.area(of: "quick brown", in: document), onPageAt: 0)
        #expect(mark.kind == .redact)
        #expect(try document.annotations(pageAt: 0).map(\.id) == [mark.id])
        #expect(try await document.text(pageAt: 0).contains("quick brown"), "a mark removes nothing")

        #expect(try document.applyRedactions() == [0])
        let text = try await document.text(pageAt: 0)
        #expect(!text.contains("quick") && !text.contains("brown") && text.contains("The") && text.contains("jumps over the lazy dog"), "\(text)")
        #expect(try document.annotations(pageAt: 0).isEmpty)
        #expect(try await document.text(pageAt: 1).contains("page two"))
        let refused = #expect(throws: RendererError.self) { try document.saveCopy(to: output, mode: .incremental) }
        #expect(refused?.code == .invalidArgument && !FileManager.default.fileExists(atPath: output))
        try document.save(to: output)

        for reader in [
            try await Tool.run("mutool", ["draw", "-q", "-F", "txt", "-o", "-", output, "1"]).text,
            try await Tool.run("pdftotext", ["-f", "1", "-l", "1", output, "-"]).text,
        ] {
            #expect(!reader.contains("quick") && !reader.contains("brown") && reader.contains("lazy dog"), "\(reader)")
        }
        // Not in the file's bytes either, with every stream decompressed.
        let expanded = try await Tool.run("qpdf", ["--qdf", "--object-streams=disable", output, "-"])
        #expect(expanded.status == 0 && !expanded.stdout.isEmpty)
        #expect(expanded.stdout.range(of: Data("quick".utf8)) == nil && expanded.stdout.range(of: Data("lazy".utf8)) != nil)
        #expect(try await Tool.run("qpdf", ["--check", output]).status == 0)
    }

    /// The pixels of an image under a mark are blanked; the rest of the image, and the same
    /// image on the other pages, stay. long.pdf's image is 2 x 2 pixels over 20...70 points:
    /// red at the top left.
    @Test func imagePixelsUnderAMarkAreBlanked() throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("long.pdf"))
        let document = try Fixtures.conformanceRegistry.open(.file(path), renderer: .id("mupdf"))
        func pixel(_ x: Int, _ y: Int, page: Int = 0) throws -> [UInt8] {
            Array(try document.render(pageAt: page, options: RenderOptions(dpi: 72)).pixel(x: x, y: y).prefix(3))
        }
        #expect(try pixel(30, 30) == [255, 0, 0])
        #expect(try pixel(60, 30) == [0, 255, 0])
        try document.markRedaction(PageRect(x: 20, y: 20, width: 25, height: 25), onPageAt: 0)
        #expect(try document.applyRedactions(pageAt: 0, blackBoxes: false) == [0])
        #expect(try pixel(30, 30) != [255, 0, 0])
        #expect(try pixel(60, 30) == [0, 255, 0] && pixel(30, 60) == [0, 0, 255])
        #expect(try pixel(30, 30, page: 1) == [255, 0, 0], "the image is shared with page 2, which keeps it")
        #expect(try document.text(pageAt: 0).contains("Page 1"))
    }

    /// A page whose content stream breaks: what both engines read of it (up to the break) is
    /// redacted where marked and kept elsewhere, and the original file is untouched. (The
    /// content after the break, which neither engine draws, is not written back.)
    @Test func aPageWithBrokenContentIsRedactedAsFarAsItIsRead() async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("broken-content.pdf"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id("mupdf"))
        try document.markRedaction(try Self.area(of: "Before", in: document), onPageAt: 0)
        #expect(try document.applyRedactions() == [0])
        try document.saveCopy(to: path + ".redacted.pdf")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let text = try await Tool.run("pdftotext", [path + ".redacted.pdf", "-"]).text
        #expect(!text.contains("Before") && text.contains("the break"), "\(text)")
        #expect(try await Tool.run("qpdf", ["--check", path + ".redacted.pdf"]).status == 0)
    }

    @Test func blackBoxesCoverTheAreas() throws {
        let document = try Fixtures.conformanceRegistry.open(.file(try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))), renderer: .id("mupdf"))
        let area = try Self.area(of: "quick", in: document)
        try document.markRedaction(area, onPageAt: 0)
        try document.applyRedactions()
        let bitmap = try document.render(pageAt: 0, options: RenderOptions(dpi: 72))
        #expect(bitmap.pixel(x: Int(area.origin.x + area.size.width / 2), y: Int(area.origin.y + area.size.height / 2)).prefix(3) == [0, 0, 0])
    }

    @Test func popplerSaysUnsupportedAndEmptyOrForbiddenMarksAreRefused() throws {
        let poppler = try Fixtures.open("text.pdf", backend: "poppler")
        #expect(!poppler.renderer.capabilities.contains(.redact))
        for attempt in [{ _ = try poppler.markRedaction(PageRect(x: 10, y: 10, width: 10, height: 10), onPageAt: 0) }, { _ = try poppler.applyRedactions() }] {
            #expect((#expect(throws: RendererError.self) { try attempt() })?.code == .unsupported)
        }
        let mupdf = try Fixtures.open("text.pdf", backend: "mupdf")
        #expect((#expect(throws: RendererError.self) { try mupdf.markRedaction(PageRect(x: 10, y: 10, width: 0, height: 10), onPageAt: 0) })?.code == .invalidArgument)
        #expect((#expect(throws: RendererError.self) { try mupdf.markRedaction(PageRect(x: 10, y: 10, width: 5, height: 5), onPageAt: 9) })?.code == .pageOutOfRange)
        let userOnly = try Fixtures.open("encrypted.pdf", backend: "mupdf", password: "user-secret")
        #expect((#expect(throws: RendererError.self) { try userOnly.markRedaction(PageRect(x: 10, y: 10, width: 5, height: 5), onPageAt: 0) })?.code == .notPermitted)
        #expect(!mupdf.hasUnsavedChanges && !userOnly.hasUnsavedChanges)
        #expect(try mupdf.applyRedactions() == [], "no marks, nothing applied")
    }
}
