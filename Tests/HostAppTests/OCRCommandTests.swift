import Foundation
import Testing
import TestSupport

/// Text recognition run as a user runs it: `--ocr` for text and search, and `hostapp ocr`
/// writing a searchable copy, on ``ScannedPages`` (pages 7-8 of "An Introduction to R" at
/// 300 dpi, their geometry kept, so the source's own text and word boxes are what
/// recognition must find); pdftotext, pdfimages and qpdf read what `ocr` wrote.
@Suite("hostapp ocr")
struct OCRCommandTests {
    static let source = ScannedPages.source
    static let pages = ScannedPages.pages
    static var scan: String { ScannedPages.path }

    func hostapp(_ arguments: [String], environment: [String: String] = [:]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments, environment: environment)
    }

    static func sourceText() async throws -> String { try await ScannedPages.sourceText() }

    /// The words pdftotext finds in `path`, with their boxes (page-space points), page by page.
    static func pdftotextWords(_ path: String) async throws -> [[(text: String, box: [Double])]] {
        let html = try await Tool.run("pdftotext", ["-bbox", path, "-"]).text
        return html.components(separatedBy: "<page ").dropFirst().map { page in
            page.components(separatedBy: "<word ").dropFirst().map { word in
                let attributes = ["xMin", "yMin", "xMax", "yMax"].map { name -> Double in
                    let start = word.range(of: "\(name)=\"")!.upperBound
                    return Double(word[start...].prefix { $0 != "\"" })!
                }
                let text = word[word.index(after: word.firstIndex(of: ">")!)...].prefix { $0 != "<" }
                return (String(text).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
                    .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'"), attributes)
            }
        }
    }

    /// The character error rate of `text` against `reference`, both with their whitespace
    /// made single spaces: the edit distance (Levenshtein) over the reference's length.
    static func characterErrorRate(_ text: String, _ reference: String) -> Double {
        let a = Array(Fixtures.normalizedWhitespace(text).unicodeScalars), b = Array(Fixtures.normalizedWhitespace(reference).unicodeScalars)
        guard !b.isEmpty else { return a.isEmpty ? 0 : 1 }
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return Double(a.isEmpty ? b.count : previous[b.count]) / Double(b.count)
    }

    /// The scan holds no text of its own; with --ocr, each engine draws it and Tesseract reads
    /// it within 2% of the characters of the source's own text.
    @Test(arguments: ["mupdf", "poppler"])
    func recognisedTextIsWithinTwoPercentOfTheSource(renderer: String) async throws {
        let own = try await Tool.run("pdftotext", [Self.scan, "-"])
        #expect(Fixtures.normalizedWhitespace(own.text).isEmpty, "the scan has text of its own: \(own.text.prefix(80))")
        let read = try await hostapp(["--renderer", renderer, "text", "--ocr", Self.scan])
        try #require(read.status == 0, "\(read.stderr)")
        let rate = Self.characterErrorRate(read.text, try await Self.sourceText())
        #expect(rate <= 0.02, "character error rate \(rate)")
        #expect(rate > 0 || read.text.count > 3000, "the pages' text was not read whole")
    }

    /// A table of contents' rows of leader dots are read as periods, not as the letters
    /// Tesseract alone makes of them (`cece eee`), and the page numbers beside them right: on
    /// a scan of the source's first two contents pages, the searchable copy holds a row of
    /// dots for each of the source's, and its text is within 2% of the source's, both read in
    /// the order their files store them (pdftotext -raw), a row of dots counted as one
    /// character (its number of dots follows the line's width; the source spaces them).
    /// Tesseract alone was 43% off here.
    @Test func leaderDotsAreReadAsPeriods() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (scan, copy) = (folder.appendingPathComponent("contents.pdf").path, folder.appendingPathComponent("searchable.pdf").path)
        let made = try await Tool.run("python3", [Fixtures.path("make-scan.py"), Self.source, "3-4", "300", scan])
        try #require(made.status == 0, "\(made.stderr)")
        let written = try await hostapp(["ocr", scan, "-o", copy])
        try #require(written.status == 0, "\(written.stderr)")
        func text(_ arguments: [String]) async throws -> String {
            try await Tool.run("pdftotext", ["-raw"] + arguments + ["-"]).text.replacing(#/(?:\s?\.){3,}/#, with: " … ")
        }
        let recognised = try await text([copy])
        let source = try await text(["-f", "3", "-l", "4", Self.source])
        let rows = source.split(separator: "…").count - 1
        #expect(rows >= 70, "the source's pages have \(rows) rows of dots")
        #expect(recognised.split(separator: "…").count - 1 == rows, "\(recognised)")
        let rate = Self.characterErrorRate(recognised, source)
        #expect(rate <= 0.02, "character error rate \(rate): \(recognised)")
    }

    /// A page of nothing but dots in rows (1 point squares every 4 points, 25 rows of 50) is
    /// read without a crash or a hang: every row is a row of leader dots, and the text is
    /// those rows' periods and nothing else.
    @Test func aPageOfDotsIsReadAsRowsOfPeriods() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = (0..<25).flatMap { row in (0..<50).map { column in "\(2 + column * 4) \(2 + row * 4) 1 1 re" } }.joined(separator: " ") + " f"
        let path = folder.appendingPathComponent("dots.pdf").path
        try HandMadePDF.write([
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ], to: path)
        let read = try await hostapp(["text", "--ocr", path])
        try #require(read.status == 0, "\(read.stderr)")
        let rows = read.text.split(whereSeparator: \.isNewline).map { $0.filter { !$0.isWhitespace } }.filter { !$0.isEmpty }
        #expect(rows.count == 25 && rows.allSatisfy { $0 == String(repeating: ".", count: 50) }, "\(read.text)")
    }

    /// Search with --ocr finds a name on the scan as often as the source holds it, each hit
    /// where the source's own text has it (pdftotext's box, within 1.5 points).
    @Test func searchFindsWordsOnAScanWhereTheSourceHasThem() async throws {
        let found = try await hostapp(["search", "--ocr", "--json", Self.scan, "Venables"])
        try #require(found.status == 0, "\(found.stderr)")
        let hits = try #require((try JSONSerialization.jsonObject(with: found.stdout) as? [String: Any])?["hits"] as? [[String: Any]])
        let sourcePage = try await Self.pdftotextWords(Self.source)[Self.pages.first - 1]
        let expected = sourcePage.filter { $0.text.hasPrefix("Venables") }
        #expect(hits.count == expected.count && !expected.isEmpty, "\(hits.count) hits where the source has \(expected.count)")
        for (hit, word) in zip(hits, expected) {
            let (x, y) = (hit["x"] as! Double, hit["y"] as! Double)
            #expect(abs(x - word.box[0]) <= 1.5 && abs(y - word.box[1]) <= 1.5, "hit at \(x),\(y), source word at \(word.box)")
        }
    }

    /// `ocr` writes a copy whose text pdftotext finds word for word where recognition found
    /// it (each word's box within half a point of its recognised box), whose text is within
    /// 2% of the source's, and whose page images are the scan's, stream for stream. Saved
    /// incrementally, the copy begins with the scan's bytes. Poppler runs in an engine
    /// process (--isolate), so the layer crosses the isolation's calls too.
    @Test(arguments: [("mupdf", false), ("poppler", true)])
    func ocrWritesASearchableCopyWithItsImagesUntouched(renderer: String, isolated: Bool) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("searchable.pdf").path
        let isolation = isolated ? ["--isolate"] : []
        let written = try await hostapp(isolation + ["--renderer", renderer, "ocr", Self.scan, "-o", output, "--save-mode", "incremental"])
        try #require(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.contains("read 2 pages"), "\(written.stderr)")
        let recognised = try await hostapp(["--renderer", renderer, "text", "--ocr", "--json", Self.scan])
        let pages = try #require(try JSONSerialization.jsonObject(with: recognised.stdout) as? [[String: Any]])
        let extracted = try await Self.pdftotextWords(output)
        #expect(extracted.count == 2)
        for (page, words) in zip(pages, extracted) {
            let expected = page["words"] as! [[String: Any]]
            #expect(words.count == expected.count, "pdftotext finds \(words.count) words where recognition found \(expected.count)")
            for (word, recognisedWord) in zip(words, expected) {
                let box = ["x", "y", "width", "height"].map { recognisedWord[$0] as! Double }
                let corners = [box[0], box[1], box[0] + box[2], box[1] + box[3]]
                #expect(word.text == recognisedWord["text"] as! String || (recognisedWord["text"] as! String).unicodeScalars.contains { $0.value > 0xFF })
                #expect(zip(word.box, corners).allSatisfy { abs($0 - $1) <= 0.5 }, "\(word.text): \(word.box) against \(corners)")
            }
        }
        let text = try await Tool.run("pdftotext", [output, "-"]).text
        #expect(Self.characterErrorRate(text, try await Self.sourceText()) <= 0.02)
        let (scanBytes, outputBytes) = (try Data(contentsOf: URL(fileURLWithPath: Self.scan)), try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(outputBytes.count > scanBytes.count && outputBytes.prefix(scanBytes.count) == scanBytes, "not an incremental update of the scan")
        for object in try await Self.imageObjects(Self.scan) {
            let before = try await Tool.run("qpdf", ["--show-object=\(object)", "--raw-stream-data", Self.scan])
            let after = try await Tool.run("qpdf", ["--show-object=\(object)", "--raw-stream-data", output])
            #expect(before.status == 0 && !before.stdout.isEmpty && after.stdout == before.stdout, "image object \(object) changed")
        }
        #expect(try await Self.imageObjects(output) == (try await Self.imageObjects(Self.scan)))
    }

    /// The object numbers of the images `pdfimages -list` finds, in order.
    static func imageObjects(_ path: String) async throws -> [String] {
        try await Tool.run("pdfimages", ["-list", path]).text.split(separator: "\n").dropFirst(2).map { String($0.split(separator: " ")[10]) }
    }

    /// Pages with text of their own are left as they were: nothing is read, and the copy's
    /// text is the file's.
    @Test func pagesWithTextKeepTheirs() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("text.pdf").path
        let written = try await hostapp(["ocr", Fixtures.path("text.pdf"), "-o", output])
        try #require(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.contains("read 0 pages") && written.stderr.contains("3 pages kept their own text"), "\(written.stderr)")
        let before = try await Tool.run("pdftotext", [Fixtures.path("text.pdf"), "-"]).text
        #expect(try await Tool.run("pdftotext", [output, "-"]).text == before)
    }

    /// What a stranger can give gets a clear error and no file: a language list that names a
    /// path, a language without data (the message names the Debian package), a resolution out
    /// of range, a PDF that forbids changes, and a page that runs out of time.
    @Test func badRequestsWriteNothing() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.pdf").path
        let empty = folder.appendingPathComponent("no-data").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let cases: [(arguments: [String], environment: [String: String], message: String)] = [
            (["ocr", "--ocr-languages", "../../etc/passwd", Self.scan, "-o", output], [:], "no list of Tesseract languages"),
            (["ocr", "--ocr-languages", "eng+", Self.scan, "-o", output], [:], "no list of Tesseract languages"),
            (["ocr", Self.scan, "-o", output], ["TESSDATA_PREFIX": empty], "install Debian's package tesseract-ocr-eng"),
            (["ocr", "--ocr-languages", "eng+chi_sim", Self.scan, "-o", output], ["TESSDATA_PREFIX": "/usr/share/tesseract-ocr/5/tessdata"], "tesseract-ocr-chi-sim"),
            (["ocr", "--ocr-dpi", "5000", Self.scan, "-o", output], [:], "--ocr-dpi must be between 36 and 1200"),
            (["ocr", "--password", "user-secret", "--force-ocr", Fixtures.path("encrypted.pdf"), "-o", output], [:], "permission modify"),
            (["ocr", "--time-limit", "0.05", Self.scan, "-o", output], [:], "time"),
        ]
        for (arguments, environment, message) in cases {
            let result = try await hostapp(arguments, environment: environment)
            #expect(result.status != 0 && result.stderr.contains(message), "\(arguments): \(result.status) \(result.stderr)")
            #expect(!result.stderr.contains(empty) && !FileManager.default.fileExists(atPath: output), "\(arguments) wrote \(output)")
            #expect(!result.stderr.contains("page 1:"), "\(arguments) read pages before it was refused: \(result.stderr)")
        }
    }

    /// Two `ocr --in-place` runs on one file at once: the file's write lock lets one write at
    /// a time. Each run either writes (the later one then finds the pages searchable and reads
    /// none) or, when the other held the lock past its wait, is refused as a conflict (exit 75)
    /// without writing; whichever happens, the file ends with one text layer.
    @Test func concurrentRunsInPlaceWriteOneTextLayer() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("scan.pdf").path
        try FileManager.default.copyItem(atPath: Self.scan, toPath: file)
        async let first = hostapp(["ocr", "--in-place", file])
        async let second = hostapp(["ocr", "--in-place", file])
        let results = try await [first, second]
        let written = results.filter { $0.status == 0 }
        let refused = results.filter { $0.status == 75 && $0.stderr.contains("another writer") }
        #expect(written.count + refused.count == 2, "\(results.map(\.stderr))")
        #expect(written.filter { $0.stderr.contains("read 2 pages") }.count == 1, "\(results.map(\.stderr))")
        #expect(written.filter { $0.stderr.contains("read 0 pages") }.count == written.count - 1, "\(results.map(\.stderr))")
        let words = try await Self.pdftotextWords(file)
        let once = try await hostapp(["text", "--ocr", "--json", Self.scan])
        let recognised = try #require(try JSONSerialization.jsonObject(with: once.stdout) as? [[String: Any]]).map { ($0["words"] as! [Any]).count }
        #expect(words.map(\.count) == recognised, "pdftotext finds \(words.map(\.count)) words, one layer holds \(recognised)")
    }
}
