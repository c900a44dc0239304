import Foundation
import RendererFonts
import RendererProvider
import RendererStamps
import TestSupport
import Testing

/// Text stamps on both engines, read back by independent witnesses: `pdftotext` (Poppler's)
/// and pypdf find the text, `pdffonts` sees the embedded subsets, `qpdf --check` the file's
/// structure, and `pdftocairo` draws where the ink falls.
@Suite("Text stamps")
struct TextStampTests {
    /// `document` saved into `folder` as `name`; its path.
    static func saved(_ document: Document, as name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try document.save(to: path)
        return path
    }

    /// Page `page` (1-based) of `file` as `pdftotext` reads it, whitespace made single spaces.
    static func pdftotext(_ file: String, page: Int) async throws -> String {
        let result = try await Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", file, "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return Fixtures.normalizedWhitespace(result.text)
    }

    @Test(arguments: Fixtures.backendIDs)
    func watermarkHeaderFooterAndBatesNumbersAreTextOnTheirPages(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf")))
        let document = try Fixtures.open("text.pdf", backend: backend)
        var watermark = TextStamp.watermark("CONFIDENTIAL")
        watermark.rotation = 0
        var bates = TextStamp.bates(BatesNumbering(prefix: "ACME-", start: 7, digits: 4))
        // Pages named twice are stamped once, numbered in the order first given.
        bates.pages = [1, 2, 1, 2, 1]
        let day = Date(timeIntervalSince1970: 1_780_000_000)
        var footer = TextStamp.footer("Page {page} of {pages}, {date}")
        footer.date = day
        try document.addTextStamps([watermark, .header("Header {page}"), footer, bates])
        let path = try Self.saved(document, as: "stamped.pdf", in: folder)

        for page in 1...3 {
            let text = try await Self.pdftotext(path, page: page)
            #expect(text.contains("CONFIDENTIAL") && text.contains("Header \(page)") && text.contains("Page \(page) of 3, 2026-05-28"), "\(text)")
            #expect(text.contains("ACME-\(String(format: "%04d", page + 5))") == (page > 1), "\(text)")
            #expect(text.components(separatedBy: "ACME-").count - 1 == (page > 1 ? 1 : 0), "\(text)")
        }
        // The page's own text is still there, and the input was not touched.
        #expect(try await Self.pdftotext(path, page: 1).contains("The quick brown fox"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf"))) == original)
        let check = try await Tool.run("qpdf", ["--check", path])
        #expect(check.status == 0, "\(check.text)")
        let fonts = try await Tool.run("pdffonts", [path])
        #expect(fonts.text.contains("CID TrueType") && fonts.text.contains("Identity-H"), "\(fonts.text)")
        #expect(fonts.text.split(separator: "\n").filter { $0.contains("CID TrueType") }.allSatisfy { $0.contains("yes yes yes") }, "\(fonts.text)")
    }

    @Test(arguments: Fixtures.backendIDs)
    func chineseAndArabicStampsAreShapedDrawnAndRead(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try Fixtures.open("text.pdf", backend: backend)
        var chinese = TextStamp.watermark("机密文件")
        chinese.rotation = 0
        try document.addTextStamps([chinese, .footer("سري للغاية — {page}/{pages}")])
        let path = try Self.saved(document, as: "scripts.pdf", in: folder)
        let text = try await Self.pdftotext(path, page: 2)
        #expect(text.contains("机密文件"), "\(text)")
        // pdftotext reads the Arabic words in the order they are read, the digits left to right.
        #expect(text.contains("سري للغاية") && text.contains("2/3"), "\(text)")
        let pypdf = try await Tool.run("python3", ["-c", "import sys, pypdf; print(pypdf.PdfReader(sys.argv[1]).pages[1].extract_text())", path])
        #expect(pypdf.text.contains("机密文件") && pypdf.text.contains("سري للغاية"), "\(pypdf.text) \(pypdf.stderr)")
    }

    @Test func shapingJoinsArabicLettersAndOrdersMixedDirections() throws {
        let face = try FontFace.covering("بيت")
        let word = face.shape("بيت")
        // Joined: the three letters take their initial, medial and final forms, none its own
        // (isolated) glyph.
        let isolated = "بيت".unicodeScalars.map { face.glyph(for: $0) }
        #expect(word.glyphs.count == 3 && Set(word.glyphs.map(\.id)).isDisjoint(with: isolated.compactMap { $0 }), "\(word.glyphs) \(isolated)")
        // Right to left: the last letter is drawn first, and stands for itself.
        #expect(word.glyphs.map(\.text) == ["ت", "ي", "ب"])
        // A right-to-left line keeps its number left to right, at its left end.
        let line = face.shape("سري 12")
        #expect(line.glyphs.prefix(2).map(\.text) == ["1", "2"] && line.glyphs.last?.text == "س", "\(line.glyphs.map(\.text))")
        let chinese = try FontFace.covering("机密")
        #expect(chinese.shape("机密").glyphs.allSatisfy { $0.id != 0 })
        #expect(throws: RendererError.self) { try FontFace.covering("\u{0378}") }
    }

    /// A page half covered by a black rectangle, to tell a stamp behind the content from one over it.
    static func halfBlackPage(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("half-black.pdf").path
        let content = "0 0 0 rg 0 0 150 300 re f"
        try HandMadePDF.write([
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ], to: path)
        return path
    }

    @Test(arguments: Fixtures.backendIDs, [PageOverlay.Placement.behind, .over, .annotation])
    func aStampGoesBehindOverOrBesideTheContentAtItsOpacity(backend: String, placement: PageOverlay.Placement) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try await Fixtures.registry.open(.file(try Self.halfBlackPage(in: folder)), renderer: .id(backend))
        var stamp = TextStamp(text: "MMMM", position: .center, fontSize: 100, color: Color(red: 1, green: 0, blue: 0, alpha: 0.5), placement: placement)
        stamp.fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        try document.addTextStamps([stamp])
        let path = try Self.saved(document, as: "placed.pdf", in: folder)
        let page = try await EngineTools.draw(backend: "poppler", file: path, page: 1, dpi: 72, in: folder).converted(toChannels: 3)
        // Red at half opacity: over white it is pink; over black, dark red when over, black when behind.
        let reds = { (range: Range<Int>) in
            (100..<200).flatMap { y in range.map { x in page.color(x: x, y: y) } }.filter { Int($0[0]) > Int($0[1]) + 60 }
        }
        #expect(reds(160..<300).contains { $0[0] > 200 && $0[1] > 100 }, "no pink on white")
        #expect(reds(0..<150).isEmpty == (placement == .behind), "red over the black rectangle: \(reds(0..<150).count) pixels")
        let annotations = try await Tool.run("python3", ["-c", "import sys, pypdf; print([str(a.get_object()['/Subtype']) for a in pypdf.PdfReader(sys.argv[1]).pages[0].get('/Annots', [])])", path])
        #expect(annotations.text.contains("/Watermark") == (placement == .annotation), "\(annotations.text)")
    }

    @Test(arguments: Fixtures.backendIDs)
    func aHeaderStandsUprightAtTheTopOfTurnedPages(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try Fixtures.open("rotated.pdf", backend: backend)
        var header = TextStamp.header("TOP {page}")
        header.fontSize = 20
        header.alignment = .left
        try document.addTextStamps([header])
        let path = try Self.saved(document, as: "turned.pdf", in: folder)
        let before = try await EngineTools.draw(backend: "poppler", file: Fixtures.path("rotated.pdf"), pages: [1, 2, 3, 4], dpi: 72, in: folder)
        let after = try await EngineTools.draw(backend: "poppler", file: path, pages: [1, 2, 3, 4], dpi: 72, in: folder)
        for (index, (old, new)) in zip(before, after).enumerated() {
            // Ink changed only in the top left corner as the page is shown.
            var changed: [(x: Int, y: Int)] = []
            for y in 0..<new.height {
                for x in 0..<new.width where old.color(x: x, y: y) != new.color(x: x, y: y) { changed.append((x, y)) }
            }
            #expect(!changed.isEmpty && changed.allSatisfy { $0.y < 70 && $0.x < 200 }, "page \(index + 1): \(changed.count) pixels, \(changed.prefix(3))")
            #expect(try await Self.pdftotext(path, page: index + 1).contains("TOP \(index + 1)"))
        }
    }

    @Test(arguments: Fixtures.backendIDs)
    func aStampThatCannotBeDrawnIsRefusedAndChangesNothing(backend: String) throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notAFont = folder.appendingPathComponent("font.ttf").path
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: notAFont))
        let document = try Fixtures.open("text.pdf", backend: backend)
        var lacking = TextStamp.watermark("机密")
        lacking.fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        var notFont = TextStamp.watermark("A")
        notFont.fontPath = notAFont
        var tooLarge = TextStamp.header("A")
        tooLarge.fontSize = 0
        var seeThrough = TextStamp.header("A")
        seeThrough.color.alpha = 2
        var beyond = TextStamp.footer("A")
        beyond.pages = [0, 3]
        let refused: [(TextStamp, RendererError.Code)] = [
            (.watermark("  \n "), .invalidArgument), (lacking, .invalidArgument), (notFont, .invalidArgument), (tooLarge, .invalidArgument),
            (seeThrough, .invalidArgument), (.footer("{bates}"), .invalidArgument), (.watermark("\u{0378}"), .invalidArgument),
            (beyond, .pageOutOfRange),
        ]
        for (stamp, code) in refused {
            // With a good stamp first: none of the batch is written.
            #expect(throws: RendererError.self) { try document.addTextStamps([.header("fine"), stamp]) }
            do { try document.addTextStamps([.header("fine"), stamp]) } catch let error as RendererError { #expect(error.code == code, "\(error)") }
        }
        #expect(try !document.text(pageAt: 0).contains("fine"))
    }
}
