import Foundation
import Testing
import TestSupport

/// `hostapp stamp`: watermarks, headers, footers and Bates numbers as pdftotext reads them,
/// on the pages asked, in any script; a stamp that cannot be drawn or settings that forbid
/// changes write nothing and leave the input as it was.
@Suite("hostapp stamp")
struct StampCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    /// On both engines, Poppler's in an engine process of its own (--isolate), as uploads are read.
    @Test(arguments: ["mupdf", "poppler"])
    func stampsAreWrittenOnThePagesAskedAndReadByPdftotext(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Fixtures.path("text.pdf"), output = directory.appendingPathComponent("stamped.pdf").path
        let isolation = backend == "poppler" ? ["--isolate"] : []
        let result = try await hostapp(["--backend", backend] + isolation + [
            "stamp", input, "--text", "草稿\\nDRAFT", "--rotation", "0", "--header", "{page} of {pages}", "--align", "right",
            "--footer", "سري للغاية", "--bates", "CASE-", "--bates-start", "90", "--bates-digits", "3", "--pages", "2-N", "-o", output,
        ])
        #expect(result.status == 0 && result.stderr.contains("stamped 2 pages with 4 stamps"), "\(result.stderr)")
        for page in 1...3 {
            let text = try await Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", output, "-"]).text
            let stamped = page > 1
            #expect(text.contains("草稿") == stamped && text.contains("DRAFT") == stamped && text.contains("\(page) of 3") == stamped, "\(page): \(text)")
            #expect(text.contains("سري للغاية") == stamped && text.contains(String(format: "CASE-%03d", 88 + page)) == stamped, "\(page): \(text)")
        }
        #expect(try await Tool.run("qpdf", ["--check", output]).status == 0)
    }

    @Test func aStampThatCannotBeDrawnOrIsForbiddenWritesNothing() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path, output = directory.appendingPathComponent("out.pdf").path
        try FileManager.default.copyItem(atPath: Fixtures.path("text.pdf"), toPath: input)
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        let refused: [([String], Int32)] = [
            (["stamp", input, "-o", output], 64),
            (["stamp", input, "--text", "A", "--behind", "--as-annotation", "-o", output], 64),
            (["stamp", input, "--text", "机密", "--font", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "-o", output], 64),
            (["stamp", input, "--text", "A", "--font", input, "-o", output], 64),
            (["stamp", input, "--text", "A", "--color", "red", "-o", output], 64),
            (["stamp", input, "--text", "A", "--opacity", "2", "-o", output], 64),
            (["stamp", input, "--footer", "{bates}", "-o", output], 64),
            (["stamp", input, "--text", "A", "--pages", "7", "--in-place"], 64),
        ]
        for (arguments, status) in refused {
            let result = try await hostapp(arguments)
            #expect(result.status == status && !result.stderr.isEmpty, "\(arguments): \(result.status) \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments)")
        }
        let settings = directory.appendingPathComponent("settings.json").path
        try Data(#"{"editing": false}"#.utf8).write(to: URL(fileURLWithPath: settings))
        let forbidden = try await hostapp(["--settings", settings, "stamp", input, "--text", "A", "--in-place"])
        #expect(forbidden.status == 77 && forbidden.stderr.contains("setting editing"), "\(forbidden.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
    }

    /// Six stamps written over one file at once, each its own process: every one that says
    /// it stamped is in the file (the output's write lock orders them; none saves over
    /// another's), and qpdf finds the file whole.
    @Test func concurrentStampsOnOneFileAreAllKept() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("shared.pdf").path
        try FileManager.default.copyItem(atPath: Fixtures.path("text.pdf"), toPath: file)
        let results = try await withThrowingTaskGroup(of: (Int, Tool.Result).self) { group in
            for writer in 0..<6 {
                group.addTask {
                    (writer, try await hostapp(["stamp", file, "--header", "writer-\(writer)", "--margin", "\(20 + writer * 16)", "--in-place"]))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        let acknowledged = results.filter { $0.value.status == 0 }.map(\.key)
        #expect(acknowledged.count + results.values.filter { $0.stderr.contains("conflict") || $0.status == 75 }.count == 6, "\(results.mapValues(\.stderr))")
        let text = try await Tool.run("pdftotext", ["-f", "1", "-l", "1", file, "-"]).text
        for writer in acknowledged { #expect(text.contains("writer-\(writer)"), "writer \(writer) was acknowledged but is not in the file: \(text)") }
        #expect(!acknowledged.isEmpty)
        #expect(try await Tool.run("qpdf", ["--check", file]).status == 0)
    }
}
