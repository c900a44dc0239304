import Foundation
import RendererProvider
import Testing
import TestSupport

/// `hostapp convert`: pictures made into a PDF, as pdfimages, pdfinfo, qpdf, pdftocairo and
/// ImageMagick (the witnesses) read it: JPEG data stored byte for byte, PNG and TIFF pixels
/// kept exactly, pages the pictures' size or the paper's, and bad pictures refused with
/// nothing written.
@Suite("hostapp convert")
struct ConvertCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    /// `text` with each run of spaces made one, as pdfinfo aligns its columns.
    func squeezed(_ text: String) -> String {
        text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: "\n")
    }

    /// pdfimages' list: each image's page, width, height, encoding and object number.
    func images(_ path: String) async throws -> [(page: Int, width: Int, height: Int, encoding: String, object: Int)] {
        let listed = try await Tool.run("pdfimages", ["-list", path]).text.split(separator: "\n").dropFirst(2)
        return listed.map { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            return (Int(f[0])!, Int(f[3])!, Int(f[4])!, f[8], Int(f[10])!)
        }
    }

    /// A JPEG goes in as it is: the image stream's bytes are the file's, the page is its size
    /// at 96 dpi (its JFIF header states no unit); a PNG's pixels come back out of the PDF
    /// unchanged. The same in an engine process (`--isolate`).
    @Test(arguments: [[], ["--isolate"]])
    func aJPEGIsStoredAsItIsAndAPNGLosslessly(extra: [String]) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.pdf").path
        let converted = try await hostapp(extra + ["convert", Fixtures.path("image.jpg"), Fixtures.path("image.png"), "-o", output])
        #expect(converted.status == 0 && converted.text.contains("wrote 2 pages"), "\(converted.stderr)")
        let listed = try await images(output)
        #expect(listed.map(\.page) == [1, 2] && listed.allSatisfy { $0.width == 306 && $0.height == 396 }, "\(listed)")
        #expect(listed.map(\.encoding) == ["jpeg", "image"], "\(listed)")
        let stream = try await Tool.run("qpdf", ["--show-object=\(listed[0].object)", "--raw-stream-data", output])
        #expect(stream.stdout == (try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("image.jpg")))))
        let info = try await squeezed(Tool.run("pdfinfo", ["-f", "1", "-l", "2", output]).text)
        #expect(info.contains("Page 1 size: 229.5 x 297 pts"), "\(info)")
        _ = try await Tool.run("pdfimages", ["-f", "2", "-l", "2", "-png", output, directory.appendingPathComponent("out").path])
        let compared = try await Tool.run("compare", ["-metric", "AE", Fixtures.path("image.png"), directory.appendingPathComponent("out-000.png").path, "null:"])
        #expect(compared.stderr.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "differing pixels: \(compared.stderr)")
    }

    /// Each page of a TIFF is a page, at its own size; with --paper the picture is fitted
    /// within the margins, centred, on pages of that paper.
    @Test func aTIFFGivesEachPageAndPaperFitsThePicture() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tiff = directory.appendingPathComponent("two.tif").path, output = directory.appendingPathComponent("out.pdf").path
        let made = try await Tool.run("convert", ["-units", "PixelsPerInch", "-density", "72", "-size", "40x30", "xc:red", "-size", "20x50", "xc:blue", "-compress", "lzw", tiff])
        #expect(made.status == 0, "\(made.stderr)")
        let converted = try await hostapp(["convert", tiff, "-o", output])
        #expect(converted.status == 0 && converted.text.contains("wrote 2 pages"), "\(converted.stderr)")
        let info = try await squeezed(Tool.run("pdfinfo", ["-f", "1", "-l", "2", output]).text)
        #expect(info.contains("Page 1 size: 40 x 30 pts") && info.contains("Page 2 size: 20 x 50 pts"), "\(info)")

        let fitted = directory.appendingPathComponent("fitted.pdf").path
        let onPaper = try await hostapp(["convert", tiff, "--paper", "200x100", "--margin", "10", "-o", fitted])
        #expect(onPaper.status == 0, "\(onPaper.stderr)")
        #expect(try await squeezed(Tool.run("pdfinfo", [fitted]).text).contains("Page size: 200 x 100 pts"))
        // The 40 x 30 picture fitted into 180 x 80 is 106.7 x 80, centred: x 46.7 to 153.3.
        let drawn = directory.appendingPathComponent("fitted").path
        _ = try await Tool.run("pdftocairo", ["-png", "-r", "72", "-f", "1", "-l", "1", "-singlefile", fitted, drawn])
        let pixel = { (x: Int, y: Int) async throws -> String in
            try await Tool.run("convert", [drawn + ".png", "-format", "%[pixel:p{\(x),\(y)}]", "info:"]).text
        }
        let (centre, left, top) = (try await pixel(100, 50), try await pixel(30, 50), try await pixel(100, 5))
        let (red, white) = ("srgb(255,0,0)", "srgb(255,255,255)")
        #expect(centre == red && left == white && top == white, "\(centre) \(left) \(top)")
    }

    /// What is no picture, a damaged one, a WebP one (named as such), one that claims too many
    /// pixels, paper no PDF has
    /// and margins that leave no room are refused with their exit codes; the output is not
    /// written, and one already there stays as it was.
    @Test func badPicturesAndLayoutsWriteNothing() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.pdf").path
        try Data("kept".utf8).write(to: URL(fileURLWithPath: output))
        let png = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("image.png")))
        let truncated = directory.appendingPathComponent("truncated.png").path
        try png.prefix(100).write(to: URL(fileURLWithPath: truncated))
        let huge = directory.appendingPathComponent("huge.png").path
        try PictureFiles.pngHeader(width: 20_000, height: 20_000).write(to: URL(fileURLWithPath: huge))
        // A WebP picture (ImageMagick's), which MuPDF on Debian 12 does not read.
        let webP = directory.appendingPathComponent("photo.webp").path
        #expect(try await Tool.run("convert", ["-size", "40x30", "xc:red", webP]).status == 0)
        let cases: [([String], Int32, String)] = [
            (["convert", Fixtures.path("text.pdf"), "-o", output], 65, "is not a JPEG, PNG or TIFF picture"),
            (["convert", truncated, "-o", output], 65, "picture 1 cannot be laid out"),
            (["convert", webP, "-o", output], 65, "is a WebP picture, which the engines here do not read: make it a PNG first"),
            (["convert", huge, "-o", output], 64, "20000 x 20000 pixels is past the limit of \(RenderOptions.defaultMaximumPixelCount) pixels"),
            (["convert", Fixtures.path("image.jpg"), "--paper", "0x0", "-o", output], 64, "paper is 1 to 14400 points a side"),
            (["convert", Fixtures.path("image.jpg"), "--paper", "a4", "--margin", "300", "-o", output], 64, "leave no room"),
            (["convert", Fixtures.path("image.jpg"), "--margin", "10", "-o", output], 64, "--margin needs --paper"),
            (["--renderer", "poppler", "convert", Fixtures.path("image.jpg"), "-o", output], 65, "Poppler does not write PDFs from pictures"),
        ]
        for (arguments, status, message) in cases {
            let result = try await hostapp(arguments)
            #expect(result.status == status && result.stderr.contains(message), "\(arguments): \(result.status) \(result.stderr)")
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["huge.png", "out.pdf", "photo.webp", "truncated.png"])
    }

    /// An office document becomes the PDF LibreOffice makes of it (pdftotext finds its words,
    /// pdfinfo its two pages), several each a PDF in a folder; they go without pictures; a
    /// damaged one writes nothing. hostapp killed
    /// (SIGKILL) while LibreOffice starts or while it converts leaves no LibreOffice behind:
    /// its bridge ends it once the requests stop, wherever they stopped.
    @Test func anOfficeDocumentIsConvertedByLibreOfficeAndLeavesNothingRunning() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try await Tool.run("/usr/bin/python3", [Fixtures.path("make-office-inputs.py"), directory.path, "http://127.0.0.1:9/none.png"])
        #expect(made.status == 0, "\(made.stderr)")
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let result = try await hostapp(["convert", file("letter.docx"), "-o", file("letter.pdf")])
        #expect(result.status == 0 && result.text == "wrote 2 pages to \(file("letter.pdf"))\n", "\(result.text) \(result.stderr)")
        let text = try await Tool.run("pdftotext", [file("letter.pdf"), "-"]).text
        #expect(text.contains("Dear Reader of Page One") && text.contains("Yours Sincerely Page Two"), "\(text)")
        // Several: each into a PDF of its name in the folder -o names, by one LibreOffice.
        let several = try await hostapp(["convert", file("letter.docx"), file("budget.xlsx"), "-o", file("converted")])
        #expect(several.status == 0 && several.text.split(separator: "\n").count == 2, "\(several.text) \(several.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: file("converted")).sorted() == ["budget.pdf", "letter.pdf"])
        #expect(try await Tool.run("pdftotext", [file("converted/budget.pdf"), "-"]).text.contains("Quarterly Budget"))
        for (arguments, status) in [([file("letter.docx"), Fixtures.path("image.png")], Int32(64)), ([file("broken.docx")], 65), ([file("letter.docx"), "--paper", "a4"], 64)] {
            let refused = try await hostapp(["convert"] + arguments + ["-o", file("refused.pdf")])
            #expect(refused.status == status && !FileManager.default.fileExists(atPath: file("refused.pdf")), "\(arguments): \(refused.status) \(refused.stderr)")
        }
        for delay in [700, 1_500] {
            let running = try RunningProcess(HostAppTests.executable, ["convert", file("budget.xlsx"), "-o", file("killed.pdf")])
            try await Task.sleep(for: .milliseconds(delay))
            running.killAtOnce()
            // The LibreOffice it started names hostapp's process id in its pipe's name.
            let gone = await eventually { try await Tool.run("pgrep", ["-f", "hostapp-office-\(running.pid)-"]).status != 0 }
            #expect(gone, "LibreOffice still runs \(delay) ms into a killed conversion")
        }
    }

    /// An HTML page becomes the PDF headless Chromium prints of it (pdftotext finds its words),
    /// beside an office document in one folder; one with a script that never ends fails
    /// within --time-limit and writes nothing.
    @Test func anHTMLPageIsPrintedByChromium() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try Data("<!doctype html><meta charset=utf-8><h1>Invoice Heading</h1><p>Total due: 42 €</p>".utf8).write(to: URL(fileURLWithPath: file("invoice.html")))
        try Data("<!doctype html><script>for (;;) {}</script>".utf8).write(to: URL(fileURLWithPath: file("loop.htm")))
        let result = try await hostapp(["convert", file("invoice.html"), "-o", file("invoice.pdf")])
        #expect(result.status == 0 && result.text.hasPrefix("wrote 1 page to "), "\(result.text) \(result.stderr)")
        let text = try await Tool.run("pdftotext", [file("invoice.pdf"), "-"]).text
        #expect(text.contains("Invoice Heading") && text.contains("Total due: 42 €"), "\(text)")
        let looping = try await hostapp(["--time-limit", "3", "convert", file("loop.htm"), "-o", file("loop.pdf")])
        #expect(looping.status != 0 && !FileManager.default.fileExists(atPath: file("loop.pdf")), "\(looping.status) \(looping.stderr)")
    }

    /// Whether `condition` holds within two minutes, asked every 100 ms.
    func eventually(_ condition: () async throws -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if (try? await condition()) == true { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}
