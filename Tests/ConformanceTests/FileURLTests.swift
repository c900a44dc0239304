import Foundation
import RendererProvider
import Testing
import TestSupport

/// The calls that take a local file by path take it by file URL too, with the same result;
/// a URL of another scheme is refused before anything is read or written.
@Suite("Files named by URL")
struct FileURLTests {
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aFileURLReadsAndWritesWhatItsPathDoes(backend: String) async throws {
        let folder = URL(fileURLWithPath: try ImageOutputTests.scratchDirectory(), isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A space and a non-ASCII letter, which a URL percent-encodes and its path does not.
        let source = folder.appendingPathComponent("the colors é.pdf")
        try FileManager.default.copyItem(atPath: Fixtures.path("colors.pdf"), toPath: source.path)
        let document = try await Fixtures.conformanceRegistry.open(try DocumentSource(fileURL: source), renderer: .id(backend))
        #expect(document.pageCount == (try Fixtures.open("colors.pdf", backend: backend)).pageCount)

        let byURL = folder.appendingPathComponent("page by url.png")
        let byPath = folder.appendingPathComponent("page by path.png").path
        try document.render(pageAt: 0, options: RenderOptions(dpi: 20), as: .png, to: byURL)
        try await document.render(pageAt: 0, options: RenderOptions(dpi: 20), as: .png, to: byPath)
        #expect(try Data(contentsOf: byURL) == Data(contentsOf: URL(fileURLWithPath: byPath)))

        let copy = folder.appendingPathComponent("copy.pdf")
        try document.saveCopy(to: copy)
        var written = [(copy, document.pageCount)]
        let extract = folder.appendingPathComponent("first page.pdf")
        if document.renderer.capabilities.contains(.editPages) {
            try document.extractPages([0], to: extract)
            written.append((extract, 1))
        } else {
            #expect((#expect(throws: RendererError.self) { try document.extractPages([0], to: extract) })?.code == .unsupported)
        }
        for (file, pages) in written {
            let info = try await Tool.run("pdfinfo", [file.path])
            let counted = info.text.split(separator: "\n").first { $0.hasPrefix("Pages:") }.map { $0.split(separator: " ").last }
            #expect(counted == .some("\(pages)"), "\(file.lastPathComponent)")
        }
    }

    @Test func aStampPictureByURLIsThePictureByPath() throws {
        let path = Fixtures.path("image.png")
        #expect(try StampImage(contentsOf: URL(fileURLWithPath: path)) == StampImage(contentsOfFile: path))
    }

    /// `https:` and `data:` URLs are no files: `invalidArgument`, and the document and the
    /// folder stay as they were.
    @Test func aURLOfAnotherSchemeIsRefused() throws {
        let document = try Fixtures.open("colors.pdf", backend: "mupdf")
        let remote = try #require(URL(string: "https://example.com/out.pdf"))
        let inline = try #require(URL(string: "data:application/pdf;base64,JVBERi0="))
        let calls: [(String, () throws -> Void)] = [
            ("source", { _ = try DocumentSource(fileURL: inline) }),
            ("save", { try document.save(to: remote) }),
            ("copy", { try document.saveCopy(to: remote) }),
            ("extract", { _ = try document.extractPages([0], to: remote) }),
            ("render", { _ = try document.render(pageAt: 0, as: .png, to: remote) }),
            ("write", { try document.write(Bitmap(), as: .png, to: remote) }),
            ("stamp", { _ = try StampImage(contentsOf: remote) }),
        ]
        for (name, call) in calls {
            let error = #expect(throws: RendererError.self, "\(name)") { try call() }
            #expect(error?.code == .invalidArgument, "\(name)")
            #expect(error?.message.contains("https:") == true || error?.message.contains("data:") == true, "\(name): \(error?.message ?? "")")
        }
        #expect(!document.hasUnsavedChanges)
        #expect(!FileManager.default.fileExists(atPath: "out.pdf"))
    }
}
