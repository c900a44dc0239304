import Foundation
import Testing
import TestSupport

/// `hostapp optimize`: copies for fast web view, as qpdf (linearisation, cross-reference and
/// object streams, encryption), pdftotext and mutool (the pages) read them; bad requests
/// write nothing and damage nothing.
@Suite("hostapp optimize")
struct OptimizeCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    /// Each page of `path` drawn by mutool at 36 dpi, as PNM bytes.
    func pages(_ path: String, count: Int) async throws -> [Data] {
        var drawn: [Data] = []
        for page in 1...count {
            drawn.append(try await Tool.run("mutool", ["draw", "-q", "-r", "36", "-F", "pnm", "-o", "-", path, "\(page)"]).stdout)
        }
        return drawn
    }

    /// long.pdf (100 pages, its streams stored uncompressed by the fixture script): the copy
    /// is linearised without error for qpdf, keeps its objects in object streams, is smaller,
    /// and says and draws what the original does, page for page.
    @Test func aCopyIsLinearisedPackedSmallerAndTheSame() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Fixtures.path("long.pdf"), output = directory.appendingPathComponent("web.pdf").path
        let result = try await hostapp(["optimize", input, "-o", output])
        #expect(result.status == 0 && result.text.hasPrefix("wrote \(output): "), "\(result.stderr)")
        let linearization = try await Tool.run("qpdf", ["--check-linearization", output])
        #expect(linearization.status == 0 && linearization.text.contains("no linearization errors"), "\(linearization.text)")
        let xref = try await Tool.run("qpdf", ["--show-xref", output]).text
        #expect(xref.contains("compressed; stream = "), "no object in an object stream: \(xref.prefix(400))")
        let sizes = try [input, output].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int }
        #expect(sizes[1] < sizes[0], "\(sizes)")
        let texts = try await [input, output].asyncMap { try await Tool.run("pdftotext", [$0, "-"]).text }
        #expect(texts[0] == texts[1] && texts[0].contains("Page 100"))
        #expect(try await pages(output, count: 3) == pages(input, count: 3))
    }

    /// A scan-like page: a 1,600 x 2,000 JPEG (ImageMagick's plasma, seeded) fitted on a letter
    /// page, so at least 181 dpi. Without --image-dpi the copy's image is the JPEG file byte
    /// for byte (pdfimages -j); with --image-dpi 100, pdfimages finds it drawn at 100 dpi or a
    /// little more, the copy is a fraction of the size and the page shows the same picture.
    @Test func imagesAreResampledOnlyWhenAsked() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        #expect(try await Tool.run("convert", ["-size", "1600x2000", "-seed", "7", "plasma:red-blue", "-quality", "90", file("scan.jpg")]).status == 0)
        #expect(try await hostapp(["convert", file("scan.jpg"), "--paper", "letter", "--margin", "0", "-o", file("scan.pdf")]).status == 0)

        #expect(try await hostapp(["optimize", file("scan.pdf"), "-o", file("kept.pdf")]).status == 0)
        #expect(try await Tool.run("pdfimages", ["-j", file("kept.pdf"), file("kept")]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file("kept-000.jpg"))) == Data(contentsOf: URL(fileURLWithPath: file("scan.jpg"))))

        let resampled = try await hostapp(["optimize", file("scan.pdf"), "-o", file("small.pdf"), "--image-dpi", "100", "--jpeg-quality", "60"])
        #expect(resampled.status == 0 && resampled.text.hasSuffix("1 image resampled\n"), "\(resampled.text) \(resampled.stderr)")
        let listed = try await Tool.run("pdfimages", ["-list", file("small.pdf")]).text.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ") }
        try #require(listed.count == 1, "\(listed)")
        let (width, xPPI, yPPI) = (Int(listed[0][3]) ?? 0, Double(listed[0][12]) ?? 0, Double(listed[0][13]) ?? 0)
        #expect(width < 1000 && (100...110).contains(xPPI) && (100...110).contains(yPPI), "\(listed[0])")
        let sizes = try ["scan.pdf", "small.pdf"].map { try FileManager.default.attributesOfItem(atPath: file($0))[.size] as! Int }
        #expect(sizes[1] * 4 < sizes[0], "\(sizes)")
        // The same picture: the pages drawn at 20 dpi differ by little on average.
        let drawn = try await ["scan.pdf", "small.pdf"].asyncMap {
            [UInt8](try await Tool.run("mutool", ["draw", "-q", "-r", "20", "-c", "rgb", "-F", "pnm", "-o", "-", file($0), "1"]).stdout)
        }
        try #require(drawn[0].count == drawn[1].count && drawn[0].count > 1000)
        let difference = zip(drawn[0], drawn[1]).dropFirst(20).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / drawn[0].count
        #expect(difference < 8, "mean difference \(difference)")

        for bad in [["--image-dpi", "0"], ["--jpeg-quality", "101"]] {
            let refused = try await hostapp(["optimize", file("scan.pdf"), "-o", file("bad.pdf")] + bad)
            #expect(refused.status == 64 && !FileManager.default.fileExists(atPath: file("bad.pdf")), "\(bad): \(refused.stderr)")
        }
    }

    /// One JPEG made into three pages (hostapp convert embeds it three times, as pdfimages
    /// shows): the copy holds it once, drawn on each page (pdfimages lists one object for the
    /// three), is less than half the size and draws the same; the pages keep content streams of
    /// their own (qpdf --show-pages), though they are equal too.
    @Test func aStreamEmbeddedAgainAndAgainIsKeptOnce() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func objects(_ name: String) async throws -> [String] {
            try await Tool.run("pdfimages", ["-list", file(name)]).text.split(separator: "\n").dropFirst(2).map { String($0.split(separator: " ")[10]) }
        }
        #expect(try await Tool.run("convert", ["-size", "400x300", "-seed", "3", "plasma:red-blue", "-quality", "90", file("logo.jpg")]).status == 0)
        #expect(try await hostapp(["convert", file("logo.jpg"), file("logo.jpg"), file("logo.jpg"), "-o", file("three.pdf")]).status == 0)
        try #require(Set(try await objects("three.pdf")).count == 3, "the fixture embeds the picture three times")

        let result = try await hostapp(["optimize", file("three.pdf"), "-o", file("once.pdf")])
        #expect(result.status == 0 && result.text.hasSuffix(", 2 repeated streams kept once\n"), "\(result.text) \(result.stderr)")
        let listed = try await objects("once.pdf")
        #expect(listed.count == 3 && Set(listed).count == 1, "\(listed)")
        let sizes = try ["three.pdf", "once.pdf"].map { try FileManager.default.attributesOfItem(atPath: file($0))[.size] as! Int }
        #expect(sizes[1] * 2 < sizes[0], "\(sizes)")
        #expect(try await pages(file("once.pdf"), count: 3) == pages(file("three.pdf"), count: 3))
        let shown = try await Tool.run("qpdf", ["--show-pages", file("once.pdf")]).text.split(separator: "\n")
        let contents = zip(shown, shown.dropFirst()).filter { $0.0.trimmingCharacters(in: .whitespaces) == "content:" }.map(\.1)
        #expect(contents.count == 3 && Set(contents).count == 3, "\(shown)")

        // A trailer that claims 2,147,483,647 objects: only those it reaches are looked at
        // (the number once made the copy take 2.3 GB), and the copy is the same.
        var claimed = try Data(contentsOf: URL(fileURLWithPath: file("three.pdf")))
        let size = try #require(claimed.range(of: Data("/Size 15".utf8)), "the fixture's trailer")
        claimed.replaceSubrange(size, with: Data("/Size 2147483647".utf8))
        try claimed.write(to: URL(fileURLWithPath: file("claims.pdf")))
        let hostile = try await hostapp(["optimize", file("claims.pdf"), "-o", file("claims-once.pdf")])
        #expect(hostile.status == 0 && hostile.text.hasSuffix(", 2 repeated streams kept once\n"), "\(hostile.text) \(hostile.stderr)")
        #expect(Set(try await objects("claims-once.pdf")).count == 1)
    }

    /// An encrypted input stays encrypted (AES-256, its permissions) and needs its password;
    /// refused, the copy is not written.
    @Test func anEncryptedInputStaysEncrypted() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("web.pdf").path
        let refused = try await hostapp(["optimize", Fixtures.path("encrypted.pdf"), "-o", output])
        #expect(refused.status == 65 && refused.stderr.contains("is encrypted: give its password"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let wrong = try await hostapp(["optimize", Fixtures.path("encrypted.pdf"), "-o", output, "--password", "guess"])
        #expect(wrong.status == 65 && wrong.stderr.contains("the password does not open"), "\(wrong.stderr)")
        let done = try await hostapp(["optimize", Fixtures.path("encrypted.pdf"), "-o", output, "--password", "user-secret"])
        #expect(done.status == 0, "\(done.stderr)")
        let shown = try await Tool.run("qpdf", ["--show-encryption", "--password=user-secret", output]).text
        #expect(shown.contains("R = 6") && shown.contains("print low resolution: not allowed"), "\(shown)")
        #expect(try await Tool.run("pdfinfo", [output]).status != 0, "opened without its password")
        #expect(try await Tool.run("qpdf", ["--check-linearization", "--password=user-secret", output]).status == 0)
    }

    /// A file qpdf cannot read, a missing one and a refusal by --settings leave the output as
    /// it was; -o naming the input replaces it only once the copy is whole.
    @Test func badRequestsWriteNothingAndInPlaceReplacesWhole() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("web.pdf").path
        try Data("kept".utf8).write(to: URL(fileURLWithPath: output))
        let damaged = try await hostapp(["optimize", Fixtures.path("not-a-pdf.pdf"), "-o", output])
        #expect(damaged.status == 65 && damaged.stderr.contains("qpdf cannot read"), "\(damaged.stderr)")
        let missing = try await hostapp(["optimize", directory.appendingPathComponent("missing.pdf").path, "-o", output])
        #expect(missing.status == 74, "\(missing.stderr)")
        let settings = directory.appendingPathComponent("settings.json").path
        try Data(#"{"saveTo": {"available": false}}"#.utf8).write(to: URL(fileURLWithPath: settings))
        let forbidden = try await hostapp(["--settings", settings, "optimize", Fixtures.path("text.pdf"), "-o", output])
        #expect(forbidden.status == 77, "\(forbidden.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["settings.json", "web.pdf"], "a partial file was left")

        let inPlace = directory.appendingPathComponent("in-place.pdf").path
        try FileManager.default.copyItem(atPath: Fixtures.path("text.pdf"), toPath: inPlace)
        #expect(try await hostapp(["optimize", inPlace, "-o", inPlace]).status == 0)
        #expect(try await Tool.run("qpdf", ["--check-linearization", inPlace]).status == 0)
        #expect(try await Tool.run("pdftotext", [inPlace, "-"]).text == Tool.run("pdftotext", [Fixtures.path("text.pdf"), "-"]).text)
    }
}
