import Foundation
import Testing
import TestSupport

/// `hostapp thumbnail` as a file manager runs it (through the thumbnailer entry's Exec line)
/// and `hostapp icons`, with `mutool draw` as the witness of what the page looks like.
@Suite("hostapp thumbnail and icons")
struct ThumbnailTests {
    static func image(_ png: String) async throws -> Netpbm {
        try Netpbm(try await Tool.run("pngtopam", ["-alphapam", png]).stdout)
    }

    /// The thumbnailer entry's Exec line, with %s, %i and %o replaced as a file manager does
    /// (the size, the input's path, the output's path), run with the built hostapp first on
    /// the PATH: the longest side is the size asked, and the page is the one `mutool draw`
    /// draws at that size, within a few levels (the engines' antialiasing). A book is laid
    /// out on this project's page size, not mutool's: only its size is checked.
    @Test(arguments: ["text.pdf", "book.epub", "comic.cbz", "pages.xps", "mixed-sizes.pdf"])
    func theEntrysExecLineDrawsTheFirstPage(file: String) async throws {
        let entry = try String(contentsOfFile: Fixtures.root.appendingPathComponent("Packaging/hostapp.thumbnailer").path, encoding: .utf8)
        let exec = try #require(entry.split(separator: "\n").first { $0.hasPrefix("Exec=") }).dropFirst(5)
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("thumb.png").path
        let words = exec.split(separator: " ").map { word -> String in
            switch word {
            case "%s": "128"
            case "%i": Fixtures.path(file)
            case "%o": output
            default: String(word)
            }
        }
        let bin = URL(fileURLWithPath: HostAppTests.executable).deletingLastPathComponent().path
        let run = try await Tool.run("/usr/bin/env", ["PATH=\(bin):/usr/bin:/bin"] + words)
        #expect(run.status == 0, "\(run.stderr)")
        let thumbnail = try await Self.image(output)
        #expect(max(thumbnail.width, thumbnail.height) == 128 || max(thumbnail.width, thumbnail.height) == 127, "\(thumbnail.width)x\(thumbnail.height)")
        guard !file.hasSuffix(".epub") else { return }
        let witness = folder.appendingPathComponent("mutool.png").path
        _ = try await Tool.run("mutool", ["draw", "-q", "-w", "128", "-h", "128", "-r", "1000", "-o", witness, Fixtures.path(file), "1"])
        let drawn = try await Self.image(witness)
        #expect(abs(drawn.width - thumbnail.width) <= 1 && abs(drawn.height - thumbnail.height) <= 1, "\(drawn.width)x\(drawn.height)")
        let gray = { (image: Netpbm) -> Double in
            image.pixels.enumerated().filter { $0.offset % image.channels < min(3, image.channels) }.reduce(0) { $0 + Double($1.element) }
                / Double(image.width * image.height * min(3, image.channels))
        }
        #expect(abs(gray(thumbnail) - gray(drawn)) < 4, "\(gray(thumbnail)) against \(gray(drawn))")
    }

    /// A picture with transparency keeps it; a page is drawn on white.
    @Test func anImageKeepsItsTransparency() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let transparent = folder.appendingPathComponent("see-through.png").path
        let made = try await Tool.run(HostAppTests.executable, ["render", Fixtures.path("text.pdf"), "--pages", "1", "--alpha", "-r", "36", "-o", transparent])
        #expect(made.status == 0, "\(made.stderr)")
        let output = folder.appendingPathComponent("thumb.png").path
        #expect(try await Tool.run(HostAppTests.executable, ["thumbnail", "-s", "64", transparent, output]).status == 0)
        let thumbnail = try await Self.image(output)
        #expect(thumbnail.pixels[thumbnail.channels - 1] == 0, "the corner is transparent")
        #expect(try await Tool.run(HostAppTests.executable, ["thumbnail", "-s", "64", Fixtures.path("text.pdf"), output]).status == 0)
        let page = try await Self.image(output)
        let opaque = stride(from: page.channels - 1, to: page.pixels.count, by: page.channels).allSatisfy { page.pixels[$0] == 255 }
        #expect(opaque, "a page on white")
    }

    /// What cannot be read ends with a non-zero status and writes nothing, as the
    /// specification asks; so does a size out of range.
    @Test func whatCannotBeReadWritesNothing() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("thumb.png").path
        for (input, size) in [(Fixtures.path("not-a-pdf.pdf"), "128"), (Fixtures.path("truncated.pdf"), "128"), (Fixtures.path("empty.pdf"), "128"),
                              (folder.appendingPathComponent("missing.pdf").path, "128"), (Fixtures.path("text.pdf"), "0"), (Fixtures.path("text.pdf"), "99999")] {
            let run = try await Tool.run(HostAppTests.executable, ["thumbnail", "-s", size, input, output])
            #expect(run.status != 0, "\(input) \(size)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "\(input): nothing written")
        }
    }

    /// A file manager runs the thumbnailer on every file a folder shows. A FictionBook nested
    /// 100,000 deep (which crashed MuPDF's layout on its stack) is refused before the engine
    /// sees it, with a typed error, here and for every command; a book nested as books are
    /// is drawn.
    @Test func aDeeplyNestedBookIsRefusedBeforeItIsLaidOut() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let deep = folder.appendingPathComponent("deep.fb2")
        let levels = 100_000
        let book = #"<?xml version="1.0" encoding="UTF-8"?><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><body>"#
            + String(repeating: "<section>", count: levels) + "<p>deep</p>" + String(repeating: "</section>", count: levels) + "</body></FictionBook>"
        try Data(book.utf8).write(to: deep)
        let output = folder.appendingPathComponent("thumb.png").path
        let thumbnail = try await Tool.run(HostAppTests.executable, ["thumbnail", "-s", "128", deep.path, output])
        #expect(thumbnail.status == 64 && thumbnail.stderr.contains("more than 256 deep"), "\(thumbnail.status) \(thumbnail.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let info = try await Tool.run(HostAppTests.executable, ["info", deep.path])
        #expect(info.status == 64 && info.stderr.contains("more than 256 deep"), "\(info.stderr)")
        #expect(try await Tool.run(HostAppTests.executable, ["thumbnail", "-s", "128", Fixtures.path("book.fb2"), output]).status == 0)
    }

    /// The thumbnailer's process is capped (1 GiB of address space): a 0.4 KB PNG that
    /// declares 20,000 x 20,000 pixels (without the cap, drawing it took 2.3 GB and 5 s),
    /// alone and inside a comic book archive, ends with a typed error and no file, its peak
    /// memory (GNU time's witness) within the cap.
    @Test func aPictureBombStaysWithinTheThumbnailersMemory() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = folder.appendingPathComponent("bomb.png").path, archive = folder.appendingPathComponent("bomb.cbz").path
        let script = """
            import sys, struct, zlib, zipfile
            def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            side = 20000  # RGB, 8 bits: 1.2 GB of pixels, of which 4 rows are in the file
            rows = b"".join(b"\\x00" + b"\\x80" * (side * 3) for _ in range(4))
            png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
            open(sys.argv[1], "wb").write(png)
            with zipfile.ZipFile(sys.argv[2], "w") as archive: archive.write(sys.argv[1], "page-01.png")
            """
        let made = try await Tool.run("python3", ["-c", script, bomb, archive])
        #expect(made.status == 0, "\(made.stderr)")
        for input in [bomb, archive] {
            let output = folder.appendingPathComponent("thumb.png").path
            let run = try await Tool.run("/usr/bin/time", ["-f", "peak %M", HostAppTests.executable, "thumbnail", "-s", "128", input, output])
            let peak = try #require(run.stderr.firstMatch(of: /peak (\d+)/).map { Int($0.1)! }, "\(run.stderr)")
            #expect(run.status != 0 && run.stderr.contains("hostapp: error:"), "\(input): \(run.status) \(run.stderr)")
            #expect(peak < 1 << 20, "\(input): \(peak) KiB at its peak")
            #expect(!FileManager.default.fileExists(atPath: output), "\(input): nothing written")
        }
    }

    /// Icons in every size, square, the page centred with transparent sides.
    @Test func iconsAreSquareInEverySize() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await Tool.run(HostAppTests.executable, ["icons", Fixtures.path("text.pdf"), folder.path, "--name", "doc"])
        #expect(run.status == 0, "\(run.stderr)")
        for size in [16, 24, 32, 48, 64, 128, 256, 512] {
            let icon = try await Self.image(folder.appendingPathComponent("\(size)x\(size)/doc.png").path)
            #expect(icon.width == size && icon.height == size && (icon.channels == 2 || icon.channels == 4), "\(size)")
            let alpha = { (x: Int, y: Int) in icon.pixels[(y * icon.width + x) * icon.channels + icon.channels - 1] }
            #expect(alpha(0, size / 2) == 0 && alpha(size / 2, size / 2) == 255, "\(size): transparent sides, an opaque page")
        }
    }
}
