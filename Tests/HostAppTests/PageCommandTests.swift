import Foundation
import Testing
import TestSupport

/// `hostapp pages`, run as a user runs it, each result read by pdfinfo, pdftotext and qpdf.
@Suite("hostapp pages")
struct PageCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    /// The text of each page, as pdftotext reads it, trimmed.
    static func pageTexts(_ path: String) async throws -> [String] {
        try await Tool.run("pdftotext", ["-layout", path, "-"]).text
            .split(separator: "\u{0C}", omittingEmptySubsequences: false).dropLast()
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test func eachCommandChangesThePagesAsAsked() async throws {
        let directory = try Tool.temporaryDirectory()
        let input = try AnnotationSamples.scratchCopy(of: Fixtures.path("outline.pdf"))
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        func output(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let steps: [([String], String, [String])] = [
            (["insert", input, "--before", "2", "--count", "2", "--size", "200x300"], "inserted.pdf",
             ["Outline page 1", "", "", "Outline page 2", "Outline page 3", "Outline page 4"]),
            (["delete", input, "--pages", "2-3"], "deleted.pdf", ["Outline page 1", "Outline page 4"]),
            (["move", input, "--page", "1", "--to", "4"], "moved.pdf", ["Outline page 2", "Outline page 3", "Outline page 4", "Outline page 1"]),
            (["merge", input, Fixtures.path("text.pdf"), "--pages", "3", "--before", "1"], "merged.pdf",
             ["Third page", "Outline page 1", "Outline page 2", "Outline page 3", "Outline page 4"]),
        ]
        for (arguments, name, texts) in steps {
            let result = try await hostapp(["--renderer", "mupdf", "pages"] + arguments + ["-o", output(name)])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(try await Self.pageTexts(output(name)) == texts, "\(name)")
            #expect(try await Tool.run("qpdf", ["--check", output(name)]).status == 0, "\(name)")
        }
        #expect(try await Tool.run("pdfinfo", ["-f", "2", "-l", "2", output("inserted.pdf")]).text.contains("200 x 300 pts"))
        let deleted = try await hostapp(["--renderer", "mupdf", "pages", "delete", input, "--pages", "3", "-o", output("d3.pdf")])
        #expect(deleted.stderr.contains("1 outline item dropped") && deleted.stderr.contains("1 link dropped"), "\(deleted.stderr)")

        let rotated = try await hostapp(["pages", "rotate", input, "--pages", "2,4", "--by=-90", "-o", output("rotated.pdf")])
        #expect(rotated.status == 0, "\(rotated.stderr)")
        let rotations = try await Tool.run("pdfinfo", ["-f", "1", "-l", "4", output("rotated.pdf")]).text
            .split(separator: "\n").filter { $0.contains(" rot: ") }.map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(rotations == ["0", "270", "0", "270"])

        let split = try await hostapp(["pages", "split", input, "--pages", "4,1", "-o", output("split.pdf")])
        #expect(split.status == 0, "\(split.stderr)")
        #expect(try await Self.pageTexts(output("split.pdf")) == ["Outline page 4", "Outline page 1"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original, "-o leaves the input alone")

        // Without -o the input itself is changed.
        #expect(try await hostapp(["pages", "delete", input, "--pages", "1"]).status == 0)
        #expect(try await Self.pageTexts(input) == ["Outline page 2", "Outline page 3", "Outline page 4"])
    }

    @Test func refusalsLeaveTheFileAlone() async throws {
        let input = try AnnotationSamples.scratchCopy(of: Fixtures.path("outline.pdf"))
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        var refused: [[String]] = [
            ["--renderer", "ghostscript", "pages", "merge", input, Fixtures.path("text.pdf")],
            ["pages", "delete", input, "--pages", "1-N"],
            ["pages", "move", input, "--page", "9", "--to", "1"],
            ["pages", "rotate", input, "--to", "45"],
            ["pages", "insert", input, "--size", "99999x10"],
            ["pages", "merge", input, Fixtures.path("truncated.pdf")],
            ["pages", "merge", input, Fixtures.path("encrypted.pdf"), "--source-password", "wrong"],
            ["pages", "merge", input, Fixtures.path("text.pdf"), "--pages", "7"],
        ]
        let settings = try Tool.temporaryDirectory().appendingPathComponent("settings.json").path
        try Data(#"{"editing": {"available": false}}"#.utf8).write(to: URL(fileURLWithPath: settings))
        refused.append(["--settings", settings, "pages", "delete", input, "--pages", "1"])
        for arguments in refused {
            let result = try await hostapp(arguments)
            #expect(result.status != 0 && result.stderr.contains("error"), "\(arguments): \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
    }
}
