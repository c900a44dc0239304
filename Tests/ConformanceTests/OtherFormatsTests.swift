import Foundation
import RendererProvider
import RendererProviderMetadata
import Testing
import TestSupport

/// XPS, EPUB, FictionBook, CBZ and images (made by make-fixtures.sh from the project's own
/// content), sniffed, routed to MuPDF, read, drawn and laid out; Poppler and the writing
/// calls refuse them.
@Suite("Other formats through MuPDF")
struct OtherFormatsTests {
    static let formats: [(file: String, type: ContentType, pages: Int?)] = [
        ("book.epub", .epub, nil), ("book.fb2", .fb2, nil), ("pages.xps", .xps, 2), ("comic.cbz", .cbz, 3),
        ("image.png", .png, 1), ("image.jpg", .jpeg, 1), ("image.tif", .tiff, 1),
    ]

    @Test(arguments: formats)
    func eachFormatIsRoutedToMuPDFAndDrawn(_ format: (file: String, type: ContentType, pages: Int?)) throws {
        let path = Fixtures.path(format.file)
        #expect(try DocumentSource.file(path).sniffContentType() == format.type)
        let document = try Fixtures.conformanceRegistry.open(.file(path))
        #expect(document.renderer.id == "mupdf" && document.contentType == format.type)
        #expect(try document.info().contentType == format.type && document.info().pdfVersion.isEmpty)
        if let pages = format.pages { #expect(document.pageCount == pages) } else { #expect(document.pageCount >= 1) }
        let bitmap = try document.render(pageAt: 0, options: RenderOptions(dpi: 36))
        #expect(bitmap.bytes.contains { $0 < 200 }, "\(format.file): something is drawn")
        // From memory too.
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try Fixtures.conformanceRegistry.open(.memory(data)).pageCount == document.pageCount)
        // Poppler does not open it, and nothing in it is changed or saved.
        let refused = #expect(throws: RendererError.self) { try Fixtures.conformanceRegistry.open(.file(path), renderer: .id("poppler")) }
        #expect(refused?.code == .unsupported)
        #expect(try document.annotations().isEmpty && document.formFields().isEmpty && document.signatureFields().isEmpty)
        #expect(try document.formKind() == .none)
        #expect((#expect(throws: RendererError.self) { try Fixtures.conformanceRegistry.open(.file(path), needing: [.editAnnotations]) })?.code == .unsupported)
        #expect((#expect(throws: RendererError.self) { try document.fillForm([:]) })?.code == .unsupported)
        #expect((#expect(throws: RendererError.self) { try document.setMetadata(DocumentMetadata(title: "x")) })?.code == .unsupported)
        #expect((#expect(throws: RendererError.self) { try document.saveCopy(to: "/tmp/never-saved.pdf") })?.code == .unsupported)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-saved.pdf"))
    }

    @Test func booksAreReadWithTheirTextOutlineLinksAndMetadata() async throws {
        let epub = try await Fixtures.conformanceRegistry.open(.file(Fixtures.path("book.epub")))
        #expect(try epub.info().title == "A Small Book" && epub.info().author == "Renderer Provider Authors")
        let text = try (0..<epub.pageCount).map { try epub.text(pageAt: $0) }.joined(separator: "\n")
        #expect(text.contains("The first chapter begins here.") && text.contains("The second chapter continues."))
        let mutool = try await Tool.run("mutool", ["draw", "-q", "-F", "txt", "-o", "-", Fixtures.path("book.epub"), "1"]).text
        #expect(mutool.contains("The first chapter begins here."), "mutool reads the same first page")
        let outline = try epub.outline()
        #expect(outline.map(\.title) == ["Chapter One", "Chapter Two"])
        #expect(outline.map(\.destination) == [.page(index: 0, point: PagePoint(x: 0, y: 0)), .page(index: 1, point: PagePoint(x: 0, y: 0))])
        #expect(try epub.links(pageAt: 0).map(\.destination).contains { if case .page(1, _, _) = $0 { true } else { false } })
        #expect(try !epub.search("second chapter", pageAt: 1).isEmpty)

        let fb2 = try await Fixtures.conformanceRegistry.open(.file(Fixtures.path("book.fb2")))
        #expect(try fb2.info().title == "A Small FictionBook")
        #expect(try fb2.outline().map(\.title) == ["Part One", "Part Two"])
        let fb2Text = try (0..<fb2.pageCount).map { try fb2.text(pageAt: $0) }.joined()
        #expect(fb2Text.contains("The first part of the fiction book.") && fb2Text.contains("The second part ends the book."))
    }

    @Test func fixedPagesHaveTheirSizesAndLinks() async throws {
        let xps = try await Fixtures.conformanceRegistry.open(.file(Fixtures.path("pages.xps")))
        // XPS measures in 1/96 inch: 400 x 300 units are 300 x 225 points.
        #expect(try xps.pageInfo(pageAt: 0).size == PageSize(width: 300, height: 225))
        #expect(try xps.links(pageAt: 0) == [Link(area: PageRect(x: 37.5, y: 37.5, width: 75, height: 60), destination: .uri("https://example.org/xps"))])

        // The comic book holds text.pdf's pages as images: as many, of the same shape.
        let cbz = try await Fixtures.conformanceRegistry.open(.file(Fixtures.path("comic.cbz")))
        let pdfinfo = try await Tool.run("pdfinfo", [Fixtures.path("text.pdf")]).text.split(separator: "\n")
        let pages = pdfinfo.first { $0.hasPrefix("Pages:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
        #expect(pages == cbz.pageCount)
        let size = try cbz.pageInfo(pageAt: 0).size
        #expect(abs(size.width / size.height - 612.0 / 792.0) < 0.01)

        // An image's page has the image's shape, as netpbm reads its pixels; the PNG's page,
        // drawn at 72 dpi, is the image.
        for file in ["image.png", "image.jpg", "image.tif"] {
            let image = try await Fixtures.conformanceRegistry.open(.file(Fixtures.path(file)))
            let page = try image.pageInfo(pageAt: 0).size
            let converter = file.hasSuffix("png") ? "pngtopam" : file.hasSuffix("jpg") ? "jpegtopnm" : "tifftopnm"
            let pixels = try await Netpbm(Tool.run(converter, [Fixtures.path(file)]).stdout)
            #expect(abs(page.width / page.height - Double(pixels.width) / Double(pixels.height)) < 0.01, "\(file)")
        }
        let png = try await Fixtures.conformanceRegistry.open(.file(Fixtures.path("image.png")))
        let drawn = try await png.render(pageAt: 0, options: RenderOptions(dpi: 72))
        let source = try await Netpbm(Tool.run("pngtopam", [Fixtures.path("image.png")]).stdout)
        #expect(drawn.width == source.width && drawn.height == source.height)
    }

    @Test func booksAreLaidOutAgainOnRequest() throws {
        let epub = try Fixtures.conformanceRegistry.open(.file(Fixtures.path("book.epub")))
        #expect(epub.isReflowable)
        let standard = epub.pageCount
        try epub.layout(pageSize: PageSize(width: 300, height: 400))
        let smaller = epub.pageCount
        try epub.layout(pageSize: PageSize(width: 300, height: 400), fontSize: 20)
        let larger = epub.pageCount
        #expect(standard < smaller && smaller < larger, "\(standard), \(smaller), \(larger)")
        #expect(try epub.pageInfo(pageAt: 0).size == PageSize(width: 300, height: 400))
        let text = try (0..<epub.pageCount).map { try epub.text(pageAt: $0) }.joined(separator: "\n")
        #expect(Fixtures.normalizedWhitespace(text).contains("Filler paragraph 40 of the second chapter"), "nothing is lost")
        #expect((#expect(throws: RendererError.self) { try epub.layout(pageSize: PageSize(width: 10, height: 10)) })?.code == .invalidArgument)
        #expect((#expect(throws: RendererError.self) { try epub.layout(pageSize: PageSize(width: 300, height: 400), fontSize: 1000) })?.code == .invalidArgument)
        let pdf = try Fixtures.open("text.pdf", backend: "mupdf")
        #expect(!pdf.isReflowable)
        #expect((#expect(throws: RendererError.self) { try pdf.layout(pageSize: PageSize(width: 300, height: 400)) })?.code == .unsupported)
    }

    @Test(arguments: ["broken.epub", "broken.cbz"])
    func damagedPackagesAreTypedErrors(file: String) throws {
        let error = #expect(throws: RendererError.self) { try Fixtures.conformanceRegistry.open(.file(Fixtures.path(file))) }
        #expect(error?.code == .damaged, "\(error?.message ?? "")")
    }

    @Test func zipArchivesOfOtherThingsAreNotDocuments() async throws {
        let directory = try Tool.temporaryDirectory()
        let path = directory.appendingPathComponent("notes.zip").path
        let script = "import zipfile, sys\nwith zipfile.ZipFile(sys.argv[1], 'w') as z: z.writestr('notes.txt', 'plain text')\n"
        #expect(try await Tool.run("python3", ["-c", script, path]).status == 0)
        #expect((#expect(throws: RendererError.self) { try DocumentSource.file(path).sniffContentType() })?.code == .unsupportedFormat)
    }
}
