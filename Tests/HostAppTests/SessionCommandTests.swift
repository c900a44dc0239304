import Foundation
import ProcessSpawning
import Testing
import TestSupport

/// `hostapp open`, `vault` and `--settings`, run as a user runs them, on both engines.
@Suite("hostapp sessions, vaults and settings")
struct SessionCommandTests {
    /// A temporary directory with a copy of a fixture and a bookmark store of its own.
    struct Workspace {
        let directory: URL
        let document: String

        init(_ fixture: String = "text.pdf") throws {
            directory = try Tool.temporaryDirectory()
            document = directory.appendingPathComponent(fixture).path
            try FileManager.default.copyItem(atPath: Fixtures.path(fixture), toPath: document)
        }

        var environment: [String: String] { ["XDG_DATA_HOME": directory.appendingPathComponent("data").path] }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        func hostapp(_ arguments: [String], input: String? = nil) async throws -> Tool.Result {
            try await Tool.run(HostAppTests.executable, arguments, environment: environment, input: input.map { Data($0.utf8) })
        }

        /// The JSON lines of an `open` run.
        func open(_ arguments: [String], commands: String) async throws -> (status: Int32, lines: [[String: Any]], stderr: String) {
            let result = try await hostapp(["open"] + arguments, input: commands)
            let lines = result.text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            return (result.status, lines, result.stderr)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// An `open` run driven while it runs: commands written to its input as the test goes,
    /// its JSON lines read as they come.
    struct LiveSession {
        let process: ChildProcess
        let input: FileHandle
        private let output: FileHandle
        /// The pipes, whose descriptors the handles use, kept open as long as the session.
        private let inputPipe: ProcessPipe, outputPipe: ProcessPipe
        /// What it has printed so far.
        private(set) var printed = Data()

        /// Starts `hostapp ARGUMENTS` in `workspace`'s environment.
        init(_ arguments: [String], in workspace: Workspace) throws {
            let inputPipe = try ProcessPipe(), outputPipe = try ProcessPipe()
            process = try ChildProcess(
                HostAppTests.executable, arguments, environment: ProcessInfo.processInfo.environment.merging(workspace.environment) { $1 },
                standardInput: .descriptor(inputPipe.reading), standardOutput: .descriptor(outputPipe.writing))
            inputPipe.closeReading()
            outputPipe.closeWriting()
            (self.inputPipe, self.outputPipe) = (inputPipe, outputPipe)
            (input, output) = (FileHandle(fileDescriptor: inputPipe.writing), FileHandle(fileDescriptor: outputPipe.reading))
        }

        /// Reads what it prints until a `text` command's result has come (or its output ends).
        mutating func readThroughTextResult() {
            while !String(decoding: printed, as: UTF8.self).contains(#""result":"text""#) {
                let chunk = output.availableData
                guard !chunk.isEmpty else { break }
                printed.append(chunk)
            }
        }

        /// Writes the last `commands`, closes its input and returns all it printed.
        mutating func finish(with commands: String) -> String {
            input.write(Data(commands.utf8))
            inputPipe.closeWriting()
            printed.append(output.readDataToEndOfFile())
            return String(decoding: printed, as: UTF8.self)
        }
    }

    @Test(arguments: ["mupdf", "poppler"])
    func theViewingStateAndBookmarksSurviveACloseAndReopen(backend: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let first = try await workspace.open(
            ["--renderer", backend, workspace.document], commands: "page 3\nzoom 1.5\nscroll 10 20\nbookmark add 2 Second\nclose\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.lines.compactMap { $0["event"] as? String } == [
            "firstPageLoaded", "documentShown", "currentPageChanged", "bookmarksChanged", "willClose", "closed",
        ])
        let second = try await workspace.open(["--renderer", backend, workspace.document], commands: "")
        #expect(second.status == 0)
        #expect(second.lines.first?["page"] as? Int == 3, "the next session opens where the last one closed")
        let shown = second.lines.dropFirst().first?["viewingState"] as? [String: Any]
        #expect(shown?["zoom"] as? Double == 1.5 && shown?["scrollX"] as? Double == 10 && shown?["scrollY"] as? Double == 20)
        #expect(second.lines.last?["event"] as? String == "closed", "the end of the input closes the session")
        #expect(try await workspace.hostapp(["bookmarks", "list", workspace.document]).text.contains("Second"))
        let asked = try await workspace.open(["--renderer", backend, "--page", "9", workspace.document], commands: "close\n")
        let clamped = asked.lines.first?["clamped"] as? [String: Any]
        #expect(asked.lines.first?["page"] as? Int == 3 && clamped?["requested"] as? Int == 9, "a page past the last is clamped, with the reason")
    }

    /// A session waiting for its next command longer than twice --time-limit is not an engine
    /// that stalled: it answers the next command (the stall watch once ended it with exit 64
    /// while the reader, or a test on a busy machine, took its time).
    @Test func aSessionOutlivesAPauseLongerThanTwiceItsTimeLimit() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var session = try LiveSession(["--renderer", "mupdf", "--time-limit", "1", "open", workspace.document], in: workspace)
        session.input.write(Data("text 1\n".utf8))
        session.readThroughTextResult()
        try await Task.sleep(for: .seconds(3))  // the pause under test: more than twice the 1 s limit
        let answers = session.finish(with: "text 2\nclose\n")
        #expect(session.process.wait() == .exited(0), "\(answers)")
        #expect(answers.components(separatedBy: #""result":"text""#).count == 3, "\(answers)")
    }

    /// A session's `save` never overwrites another writer's change: a note another
    /// `hostapp` added (and acknowledged) while the session was open stays, the session's
    /// save is refused with exit 75, and its `save-to` still keeps its own work.
    @Test(arguments: ["mupdf", "poppler"])
    func aSaveNeverOverwritesAnotherWritersChange(backend: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var session = try LiveSession(["--renderer", backend, "open", workspace.document], in: workspace)
        let note = #"{"id": "mine", "kind": "Square", "pageIndex": 0, "rect": {"origin": {"x": 10, "y": 10}, "size": {"width": 30, "height": 30}}}"#
        session.input.write(Data("annotate \(note)\ntext 1\n".utf8))
        // The session has read the file and made its change once the text comes back.
        session.readThroughTextResult()
        let other = try await workspace.hostapp([
            "--renderer", backend, "annotations", "add", workspace.document, "--page", "1", "--kind", "text", "--rect", "100,100,16,16", "--contents", "theirs",
        ])
        #expect(other.status == 0, "\(other.stderr)")
        let printed = session.finish(with: "save\nsave-to \(workspace.path("mine.pdf"))\nclose\n")
        #expect(session.process.wait() == .exited(75), "\(printed)")
        #expect(printed.contains("changed since this session opened or saved it"))
        let kept = try await workspace.hostapp(["--renderer", backend, "annotations", "list", workspace.document]).text
        #expect(kept.contains("theirs") && !kept.contains("mine"), "\(kept)")
        #expect(try await workspace.hostapp(["--renderer", backend, "annotations", "list", workspace.path("mine.pdf")]).text.contains("mine"))
    }

    @Test(arguments: ["mupdf", "poppler"])
    func editsAndSavesAreToldAndAFailedCommandSetsTheExitCode(backend: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let note = #"{"id": "n1", "kind": "Square", "pageIndex": 0, "rect": {"origin": {"x": 10, "y": 10}, "size": {"width": 30, "height": 30}}}"#
        let run = try await workspace.open(
            ["--renderer", backend, workspace.document],
            commands: "annotate \(note)\npage 7\nsave\ntext 1\nremove n1\nsave-to \(workspace.path("copy.pdf"))\nclose\n")
        #expect(run.status == 64, "page 7 does not exist: the first failure's exit code")
        let names = run.lines.map { ($0["event"] ?? ($0["result"] != nil ? "result" : "error")) as? String ?? "" }
        #expect(names == [
            "firstPageLoaded", "documentShown", "annotationsChanged", "error", "willSave", "saved", "result", "annotationsChanged",
            "willSave", "saved", "willClose", "closed",
        ])
        #expect((run.lines[3]["error"] as? [String: Any])?["code"] as? String == "page-out-of-range")
        let added = (run.lines[2]["added"] as? [[String: Any]])?.first
        #expect(added?["id"] as? String == "n1")
        let listed = try await workspace.hostapp(["--renderer", backend, "annotations", "list", workspace.document])
        #expect(listed.text.contains("n1"), "saved with the annotation")
        let copy = try await workspace.hostapp(["--renderer", backend, "annotations", "list", workspace.path("copy.pdf")])
        #expect(copy.status == 0 && !copy.text.contains("n1"), "the copy was saved after the removal")
    }

    @Test(arguments: ["mupdf", "poppler"])
    func settingsAreHonouredByEveryEditingCommand(backend: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let settings = workspace.path("settings.json")
        try Data(#"{"annotations": {"available": false}, "printing": false}"#.utf8).write(to: URL(fileURLWithPath: settings))
        let before = try Data(contentsOf: URL(fileURLWithPath: workspace.document))
        let incoming = workspace.path("incoming.json")
        try Data(#"[{"kind": "Square", "pageIndex": 0, "rect": {"origin": {"x": 1, "y": 2}, "size": {"width": 3, "height": 4}}}]"#.utf8)
            .write(to: URL(fileURLWithPath: incoming))
        let refused: [[String]] = [
            ["annotations", "add", workspace.document, "--page", "1", "--kind", "square", "--rect", "1,1,5,5"],
            ["annotations", "remove", workspace.document, "p1-Square-1"],
            ["annotations", "import", workspace.document, incoming],
            ["render", workspace.document, "-o", workspace.path("out")],
        ]
        for command in refused {
            let result = try await workspace.hostapp(["--renderer", backend, "--settings", settings] + command)
            #expect(result.status == 77, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("not permitted"), "\(command): \(result.stderr)")
        }
        let session = try await workspace.open(["--renderer", backend, "--settings", settings, workspace.document], commands: "render 1 \(workspace.path("p.png"))\nclose\n")
        #expect(session.status == 77)
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.document)) == before, "nothing was changed")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("out")) && !FileManager.default.fileExists(atPath: workspace.path("p.png")))
        let allowed = try await workspace.hostapp(["--renderer", backend, "--settings", settings, "text", workspace.document])
        #expect(allowed.status == 0, "reading is not an edit")
        // A settings file with an unknown key or a wrong type is a usage error, naming the key.
        for (json, key) in [(#"{"anotations": false}"#, "anotations"), (#"{"save": 3}"#, "save")] {
            try Data(json.utf8).write(to: URL(fileURLWithPath: settings))
            let bad = try await workspace.hostapp(["--renderer", backend, "--settings", settings, "annotations", "remove", workspace.document, "x"])
            #expect(bad.status == 64 && bad.stderr.contains(key), "\(json): \(bad.stderr)")
        }
    }

    /// Eight writers add a note each to one document in a vault at once: every one that was
    /// acknowledged is stored, and none is refused.
    @Test func concurrentEditsInAVaultLoseNothing() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let vault = workspace.path("vault"), key = workspace.path("vault.key")
        #expect(try await workspace.hostapp(["vault", "key", "-o", key]).status == 0)
        let sealed = ["--vault", vault, "--key-file", key]
        #expect(try await workspace.hostapp(["vault", "encrypt", workspace.document, "--as", "doc.pdf"] + sealed).status == 0)
        let results = try await withThrowingTaskGroup(of: Tool.Result.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    try await workspace.hostapp(
                        ["annotations", "add", "doc.pdf", "--page", "1", "--kind", "square", "--rect", "\(10 + writer * 20),10,15,15", "--contents", "writer \(writer)"] + sealed)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let acknowledged = results.filter { $0.status == 0 }
        #expect(acknowledged.count == 8, "\(results.map(\.stderr))")
        let listed = try await workspace.hostapp(["annotations", "list", "--json", "doc.pdf"] + sealed)
        let stored = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        #expect(Set(stored.compactMap { $0["contents"] as? String }) == Set((0..<8).map { "writer \($0)" }), "\(listed.text)")
    }

    @Test(arguments: ["mupdf", "poppler"])
    func aVaultIsReadAndWrittenByEveryCommand(backend: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let vault = workspace.path("vault"), key = workspace.path("vault.key")
        try FileManager.default.createDirectory(atPath: vault, withIntermediateDirectories: true)
        #expect(try await workspace.hostapp(["vault", "key", "-o", key]).status == 0)
        let sealed = ["--renderer", backend, "--vault", vault, "--key-file", key]
        #expect(try await workspace.hostapp(["vault", "encrypt", workspace.document, "--as", "doc.pdf"] + sealed).status == 0)
        let plainText = try await workspace.hostapp(["--renderer", backend, "text", workspace.document]).text
        let vaultText = try await workspace.hostapp(["text", "doc.pdf"] + sealed)
        #expect(vaultText.status == 0 && vaultText.text == plainText)
        let added = try await workspace.hostapp(["annotations", "add", "doc.pdf", "--page", "1", "--kind", "circle", "--rect", "5,5,20,20"] + sealed)
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try await workspace.hostapp(["annotations", "list", "doc.pdf"] + sealed)
        #expect(listed.text.contains("Circle"))
        let session = try await workspace.open(sealed + ["doc.pdf"], commands: "page 2\nclose\n")
        #expect(session.status == 0 && session.lines.last?["event"] as? String == "closed")
        let listing = try await workspace.hostapp(["vault", "ls", "--json"] + sealed)
        let entries = try JSONSerialization.jsonObject(with: listing.stdout) as? [[String: Any]]
        #expect(entries?.map { $0["name"] as? String } == ["doc.pdf"] && entries?.first?["status"] as? String == "ok")
        #expect(try await workspace.hostapp(["vault", "decrypt", "doc.pdf", "-o", workspace.path("out.pdf")] + sealed).status == 0)
        #expect(try await Tool.run("qpdf", ["--check", workspace.path("out.pdf")]).status == 0)
        #expect(try await Tool.run("pdftotext", [workspace.path("out.pdf"), "-"]).text.contains("quick brown fox"))
        let stored = try Data(contentsOf: URL(fileURLWithPath: vault + "/doc.pdf"))
        #expect(stored.range(of: Data("%PDF".utf8)) == nil, "the vault holds no plain PDF")

        // A wrong key and a file that is not a vault entry fail as document errors; nothing changes.
        let otherKey = workspace.path("other.key")
        _ = try await workspace.hostapp(["vault", "key", "-o", otherKey])
        let wrong = try await workspace.hostapp(["text", "doc.pdf", "--vault", vault, "--key-file", otherKey])
        #expect(wrong.status == 65 && wrong.stderr.contains("key does not open"))
        try FileManager.default.copyItem(atPath: workspace.document, toPath: vault + "/plain.pdf")
        let foreign = try await workspace.hostapp(["info", "plain.pdf"] + sealed)
        #expect(foreign.status == 65 && foreign.stderr.contains("not an encrypted vault entry"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: vault + "/doc.pdf")) == stored)
        let bad = try await workspace.hostapp(["vault", "ls"] + sealed).text
        #expect(bad.contains("unsupported-format\t-\tplain.pdf"))

        // One sealed entry copied over another by hand: whole, sealed with the key, and found out.
        #expect(try await workspace.hostapp(["vault", "encrypt", workspace.document, "--as", "copy.pdf"] + sealed).status == 0)
        try FileManager.default.removeItem(atPath: vault + "/doc.pdf")
        try FileManager.default.copyItem(atPath: vault + "/copy.pdf", toPath: vault + "/doc.pdf")
        let swapped = try await workspace.hostapp(["vault", "ls"] + sealed).text
        #expect(swapped.contains("tampered\t-\tdoc.pdf") && swapped.contains("\tcopy.pdf"), "\(swapped)")
        let opened = try await workspace.hostapp(["text", "doc.pdf"] + sealed)
        #expect(opened.status != 0 && opened.stderr.contains("swapped"), "\(opened.stderr)")
    }
}
