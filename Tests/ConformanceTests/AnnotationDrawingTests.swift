import Foundation
import RendererProvider
import Testing
import TestSupport

/// `RenderOptions.annotations`: a page drawn without its annotations has the pixels the
/// engine's own tool draws for a copy of the file whose pages have no `/Annots` (made by
/// pypdf, which neither engine shares code with); drawn with them, it does not.
///
/// annotations.pdf's annotations use transparency, so MuPDF draws that page's content
/// inside a page transparency group, decided when the page loads, even without them: its
/// copy gets `/Group << /S /Transparency >>` to match (without it, 840 bytes differ by one or
/// two levels). MuPDF's own contents-only drawing, `Page.toPixmap` with `no_annots` under
/// `mutool run`, is a second witness.
@Suite("Drawing a page without its annotations")
struct AnnotationDrawingTests {
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func withoutAnnotationsEqualsTheToolOnACopyWithoutThem(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = Fixtures.path("annotations.pdf")
        let stripped = directory.appendingPathComponent("stripped.pdf").path
        let script = """
            import sys, pypdf
            from pypdf.generic import DictionaryObject, NameObject
            writer = pypdf.PdfWriter(clone_from=sys.argv[1])
            for page in writer.pages:
                del page["/Annots"]
                if sys.argv[3] == "group":
                    page[NameObject("/Group")] = DictionaryObject({NameObject("/S"): NameObject("/Transparency")})
            writer.write(sys.argv[2])
            """
        let removed = try await Tool.run("python3", ["-c", script, original, stripped, Fixtures.engineID(backend) == "mupdf" ? "group" : "plain"])
        try #require(removed.status == 0, "pypdf failed: \(removed.stderr)")

        let document = try await Fixtures.conformanceRegistry.open(.file(original), renderer: .id(backend))
        var options = RenderOptions(dpi: 72)
        options.annotations = false
        let without = try await document.render(pageAt: 0, options: options)
        let with = try await document.render(pageAt: 0, options: RenderOptions(dpi: 72))
        let theirs = try await EngineTools.draw(backend: backend, file: stripped, page: 1, dpi: 72, in: directory)
        #expect((without.width, without.height) == (theirs.width, theirs.height))
        let same = without.bytes == theirs.pixels
        #expect(same, "without annotations: pixels differ from the tool's on the copy without them")
        let annotated = zip(with.bytes, theirs.pixels).lazy.filter { $0 != $1 }.count
        #expect(annotated > 1000, "with annotations, only \(annotated) bytes differ from the page without them")
        if Fixtures.engineID(backend) == "mupdf" {
            let contents = directory.appendingPathComponent("contents.png").path
            let js = directory.appendingPathComponent("contents.js")
            try Data("new PDFDocument(scriptArgs[0]).loadPage(0).toPixmap(Identity, DeviceRGB, false, true).saveAsPNG(scriptArgs[1]);\n".utf8).write(to: js)
            let drawn = try await Tool.run("mutool", ["run", js.path, original, contents])
            #expect(drawn.status == 0, "mutool run failed: \(drawn.stderr)")
            let sameAsMuPDF = try await Netpbm(Tool.run("pngtopnm", [contents]).stdout).pixels == without.bytes
            #expect(sameAsMuPDF, "MuPDF's own contents-only drawing differs")
        }
    }
}
