import Foundation
import Testing
import TestSupport

/// hostapp's reading commands on the other formats MuPDF reads, and EPUB's layout options.
@Suite("hostapp on XPS, EPUB, FictionBook, CBZ and images")
struct FormatCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    @Test(arguments: ["book.epub", "book.fb2", "pages.xps", "comic.cbz", "image.png", "image.jpg", "image.tif"])
    func everyReadingCommandWorks(file: String) async throws {
        let path = Fixtures.path(file)
        let directory = try Tool.temporaryDirectory()
        let commands: [(command: [String], arguments: [String])] = [
            (["info"], []), (["text"], []), (["outline"], []), (["links"], []), (["search"], ["the"]), (["signatures"], []),
            (["forms", "list"], []), (["annotations", "list"], []), (["render"], ["--dpi", "36", "-o", directory.path]),
        ]
        for (command, arguments) in commands {
            let result = try await hostapp(command + [path] + arguments)
            // search exits 1 when the term is not there (a picture has no text).
            let expected: Int32 = command == ["search"] && result.text.hasSuffix("0 hits\n") ? 1 : 0
            #expect(result.status == expected, "\(command) \(file): \(result.stderr)")
        }
        let rendered = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".png") }
        #expect(!rendered.isEmpty, "\(file): pages drawn")
        let info = try await JSONSerialization.jsonObject(with: hostapp(["info", path, "--json"]).stdout) as? [String: Any]
        let contentType = (info?["info"] as? [String: Any])?["contentType"] as? String
        #expect(contentType != nil && contentType != "application/pdf", "\(contentType ?? "no contentType")")
        let poppler = try await hostapp(["--renderer", "poppler", "info", path])
        #expect(poppler.status != 0 && poppler.stderr.contains("does not open"), "\(poppler.stderr)")
    }

    @Test func layoutOptionsChangeTheBooksPages() async throws {
        func pages(_ extra: [String]) async throws -> Int {
            let result = try await hostapp(extra + ["info", Fixtures.path("book.epub"), "--json"])
            let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
            return try #require((json?["info"] as? [String: Any])?["pageCount"] as? Int)
        }
        let standard = try await pages([])
        let small = try await pages(["--layout", "300x400"])
        let large = try await pages(["--layout", "300x400", "--font-size", "20"])
        #expect(standard < small && small < large, "\(standard), \(small), \(large)")
        let text = try await hostapp(["--font-size", "20", "text", Fixtures.path("book.epub"), "--pages", "1"]).text
        #expect(text.contains("Chapter One"))
        let bad = try await hostapp(["--layout", "5x5", "info", Fixtures.path("book.epub")])
        #expect(bad.status != 0 && bad.stderr.contains("layout"))
        let fixed = try await hostapp(["--layout", "300x400", "info", Fixtures.path("text.pdf")])
        #expect(fixed.status == 0 && fixed.stderr.contains("pages are fixed"))
    }
}
