import Foundation
import RendererProvider
import Testing
import TestSupport

/// Each backend against its own engine's command-line tool at the same settings: MuPDF
/// against `mutool draw -c rgb`, Poppler against `pdftocairo -cropbox`, Ghostscript against
/// `gs -sDEVICE=png16m` (the PNGs decoded by netpbm's `pngtopnm`; Ghostscript's image
/// padded with the part-pixel of background the provider rounds up to). The pixels must be identical on every page of every fixture, and on
/// pages of real documents: the manuals `make bench` measures and the first PDFs Debian's
/// packages installed.
@Suite("Pixel-identical to the engines' own tools")
struct ReferenceTests {
    @Test(arguments: [72.0, 150.0])
    func muPDFMatchesMutoolDraw(dpi: Double) async throws {
        try await compare(backend: "mupdf", dpi: dpi, pages: Self.fixturePages())
    }

    @Test(arguments: [72.0, 150.0])
    func popplerMatchesPdftocairo(dpi: Double) async throws {
        try await compare(backend: "poppler", dpi: dpi, pages: Self.fixturePages())
    }

    @Test(arguments: [72.0, 150.0])
    func ghostscriptMatchesItsPNGDevice(dpi: Double) async throws {
        try await compare(backend: "ghostscript", dpi: dpi, pages: Self.fixturePages())
    }

    /// Pages of real documents, where MuPDF once drew spot colours and overprint straight to
    /// RGB and Poppler drew blend modes over white instead of under it: a level or two off
    /// in up to 9% of the pixels.
    @Test(arguments: Fixtures.readingBackendIDs, [72.0, 150.0])
    func realDocumentsMatchTheEnginesTools(backend: String, dpi: Double) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let installed = try await RealWorldDocuments.collect(into: directory, limit: 6).map { (file: $0, page: 1) }
        let pages = RealWorldDocuments.manualPages + installed
        for manual in Set(RealWorldDocuments.manualPages.map(\.file)) {
            try #require(FileManager.default.fileExists(atPath: manual), "\(manual) is missing: make setup installs it")
        }
        try await compare(backend: backend, dpi: dpi, pages: pages)
    }

    private static func fixturePages() throws -> [(file: String, page: Int)] {
        try Fixtures.allDocuments.flatMap { file in
            let count = try Fixtures.conformanceRegistry.open(.file(file), renderer: .id("mupdf")).pageCount
            return (1...count).map { (file: file, page: $0) }
        }
    }

    /// Transparent PNGs equal the engine's tool's, colour and alpha of every pixel, partly
    /// transparent ones included: the bitmap's straight alpha, premultiplied again for the
    /// encoder, gives back exactly the pixels the engine drew.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func transparentPNGsMatchTheEnginesTools(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var partlyTransparent = 0
        for file in [Fixtures.samplePath, Fixtures.path("colors.pdf"), Fixtures.path("text.pdf")] {
            let document = try await Fixtures.conformanceRegistry.open(.file(file), renderer: .id(backend))
            let ours = directory.appendingPathComponent("ours.png").path
            try await document.render(pageAt: 0, options: RenderOptions(dpi: 72, pixelFormat: .rgba, background: .transparent), as: .png, to: ours)
            let theirs = directory.appendingPathComponent("theirs").path
            let result = Fixtures.engineID(backend) == "mupdf"
                ? try await Tool.run("mutool", ["draw", "-q", "-c", "rgba", "-r", "72", "-o", theirs + ".png", file, "1"])
                : try await Tool.run("pdftocairo", ["-png", "-transp", "-r", "72", "-cropbox", "-f", "1", "-l", "1", "-singlefile", file, theirs])
            #expect(result.status == 0, "the engine's tool failed: \(result.stderr)")
            // The fast encoder writes text.pdf's gray page as gray and alpha.
            let decodedOurs = try await Netpbm(Tool.run("pngtopam", ["-alphapam", ours]).stdout).converted(toChannels: 4)
            let decodedTheirs = try await Netpbm(Tool.run("pngtopam", ["-alphapam", theirs + ".png"]).stdout)
            let name = URL(fileURLWithPath: file).lastPathComponent
            #expect(decodedOurs.channels == 4 && decodedTheirs.channels == 4, "\(name): channels")
            partlyTransparent += stride(from: 3, to: decodedOurs.pixels.count, by: 4).filter { (1...254).contains(decodedOurs.pixels[$0]) }.count
            let same = decodedOurs.pixels == decodedTheirs.pixels
            #expect(same, "\(name): pixels differ from the engine's tool")
        }
        #expect(partlyTransparent > 1000, "too few partly transparent pixels to check: \(partlyTransparent)")
    }

    /// Each file opened once and its pages drawn by the engine's tool in one run.
    private func compare(backend: String, dpi: Double, pages: [(file: String, page: Int)]) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        var pagesOfFile: [String: [Int]] = [:]
        for (file, page) in pages {
            if pagesOfFile[file] == nil { files.append(file) }
            pagesOfFile[file, default: []].append(page)
        }
        for file in files {
            let numbers = pagesOfFile[file, default: []].sorted()
            let document = try await Fixtures.conformanceRegistry.open(.file(file), renderer: .id(backend))
            let drawn = try await EngineTools.draw(backend: backend, file: file, pages: numbers, dpi: Int(dpi), in: directory)
            for (page, witness) in zip(numbers, drawn) {
                let ours = try await document.render(pageAt: page - 1, options: RenderOptions(dpi: dpi))
                var theirs = witness
                if Fixtures.engineID(backend) == "ghostscript", let padded = theirs.padded(toWidth: ours.width, height: ours.height) { theirs = padded }
                let name = "\(URL(fileURLWithPath: file).lastPathComponent) page \(page) at \(dpi) dpi with \(backend)"
                #expect((ours.width, ours.height) == (theirs.width, theirs.height), "\(name): size")
                #expect(theirs.channels == 3 && ours.bytes == theirs.pixels, "\(name): pixels differ")
            }
        }
    }
}
