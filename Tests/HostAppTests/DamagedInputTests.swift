import Foundation
import Testing
import TestSupport

/// The damaged and hostile files of Tests/Damaged/make-damaged.py, written at test time.
enum DamagedSet {
    static let directory = Fixtures.root.appendingPathComponent("Tests/Damaged")

    /// Only the hostile files, written once per test run.
    static let hostile: URL? = try? makeBlocking(count: 0)

    /// A new folder holding `count` damaged variants of the seed documents and the hostile files.
    static func make(count: Int) async throws -> URL {
        try await onOwnThread { try makeBlocking(count: count) }
    }

    /// ``make(count:)`` on the calling thread, for the static value's initialiser.
    static func makeBlocking(count: Int) throws -> URL {
        let folder = try Tool.temporaryDirectory()
        let result = try Tool.runBlocking("python3", [directory.appendingPathComponent("make-damaged.py").path, folder.path, "--count", String(count)])
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        return folder
    }

    /// One hostapp run of Tests/Damaged/run-damaged.py's report.
    struct Run: Decodable {
        var file: String
        var backend: String
        var command: String
        var status: Int?
        var timedOut: Bool
        var error: String
        var typedError: Bool
    }

    /// The commands `auto` runs here: those whose pages depend on how the file opened. The
    /// others (outline, links, annotations, export, bookmarks) read with the engine `auto`
    /// picked, as the runs with that engine do; `make damaged` runs them all with `auto` too.
    static let autoCommands = ["info", "render", "text", "search", "compare"]

    /// Runs every reading command of hostapp with every backend on each file of `folder`
    /// (`auto` the ``autoCommands``), each with a time limit of 1 s: the few runs in which an
    /// engine is caught in a loop then end after 2 s instead of 10 (a typed error either way),
    /// and a run that is only slow on a busy machine ends with the same typed error, which the
    /// checks accept.
    static func runAll(in folder: URL, isolate: Bool = false) async throws -> [Run] {
        let report = folder.appendingPathComponent("report.json")
        var arguments = [directory.appendingPathComponent("run-damaged.py").path, folder.path, "--hostapp", HostAppTests.executable,
                         "--report", report.path, "--timeout", "60", "--time-limit", "1", "--auto-commands", autoCommands.joined(separator: ",")]
        if isolate { arguments.append("--isolate") }
        let result = try await Tool.run("python3", arguments)
        guard result.status == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        return try JSONDecoder().decode([Run].self, from: Data(contentsOf: report))
    }
}

/// Damaged and hostile input through every command, backend and `auto`: never a crash or a
/// hang, and every failure a typed error.
@Suite("Damaged and hostile input")
struct DamagedInputTests {
    static let exitCodes: Set<Int> = [64, 65, 70, 74]

    func check(_ runs: [DamagedSet.Run]) {
        for run in runs {
            let what = "\(run.command) --backend \(run.backend) \(run.file): \(run.error)"
            #expect(!run.timedOut, "ran past 60 s: \(what)")
            guard let status = run.status else { continue }
            #expect(status >= 0, "ended by signal \(-status): \(what)")
            // compare exits 1 when the engines differ, search when nothing matches.
            if status == 0 || (status == 1 && ["compare", "search"].contains(run.command)) { continue }
            #expect(Self.exitCodes.contains(status), "exit \(status): \(what)")
            #expect(run.typedError, "no 'hostapp: error:' line: \(what)")
        }
    }

    /// 6 damaged variants (of the first 6 seed documents; the four kinds, a cut, bit flips,
    /// shuffled objects and spliced bytes, taken in turn) and the hostile files, through 10
    /// commands (Ghostscript through the 3 it declares, `auto` through the
    /// ``DamagedSet/autoCommands``). `make damaged` runs thousands, of every seed; these are
    /// what every test run can afford in CI's budget (each variant costs 26 hostapp runs).
    @Test func everyCommandEndsWithAResultOrATypedError() async throws {
        let folder = try await DamagedSet.make(count: 6)
        defer { try? FileManager.default.removeItem(at: folder) }
        let runs = try await DamagedSet.runAll(in: folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".pdf") }
        // 9 commands with MuPDF and Poppler, 4 with auto, Ghostscript's 3 (render, text,
        // search), and compare once.
        #expect(runs.count == files.count * 26)
        check(runs)
        // The set exercises both outcomes.
        #expect(runs.contains { $0.status == 0 } && runs.contains { $0.status == 65 })
    }

    /// The same with the engine in a child process: nothing changes for a file no engine
    /// crashes on. The hostile files and 4 damaged variants (the four kinds) are what CI's
    /// budget affords beside the run above; `make damaged` runs its thousands both ways.
    @Test func isolatedCommandsEndTheSameWay() async throws {
        let folder = try await DamagedSet.make(count: 4)
        defer { try? FileManager.default.removeItem(at: folder) }
        let runs = try await DamagedSet.runAll(in: folder, isolate: true)
        check(runs)
        let crashed = runs.filter { $0.status == 70 }.map { "\($0.command) --backend \($0.backend) \($0.file): \($0.error)" }
        #expect(crashed.isEmpty, "no engine crashes on these files: \(crashed)")
    }

    /// Loops in the cross-reference chain, the page tree and the outline end: the document
    /// opens, and the outline lists each item once.
    @Test(arguments: Fixtures.backendIDs)
    func loopsEnd(backend: String) async throws {
        let folder = try #require(DamagedSet.hostile)
        for name in ["hostile-xref-loop.pdf", "hostile-outline-loop.pdf"] {
            let info = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "info", folder.appendingPathComponent(name).path])
            #expect(info.status == 0 && info.text.contains("Pages:        1"), "\(name): \(info.stderr)")
        }
        let outline = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "outline", "--json", folder.appendingPathComponent("hostile-outline-loop.pdf").path])
        #expect(outline.status == 0, "\(backend): \(outline.stderr)")
        let items = try JSONSerialization.jsonObject(with: outline.stdout) as? [[String: Any]]
        #expect(items?.compactMap { $0["title"] as? String } == ["One", "Two"])
        let tree = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "info", folder.appendingPathComponent("hostile-page-tree-loop.pdf").path])
        #expect(tree.status == 0 || tree.status == 65, "\(tree.stderr)")
    }

    /// A page tree that holds 2 pages and claims 1,066,275,043 (the fuzzer found that count;
    /// MuPDF believed it, and reading the page facts asked for 51 GB). MuPDF's count is not
    /// believed past the file's 5 objects, so the pages the tree holds are read, as qpdf
    /// finds them walking the tree. Poppler refuses such a count and reads no pages: the
    /// file is damaged for it, and `auto` serves MuPDF's two pages.
    @Test(arguments: ["mupdf", "poppler", "auto"])
    func aPageCountPastTheObjectsIsNotBelieved(backend: String) async throws {
        let file = try #require(DamagedSet.hostile).appendingPathComponent("hostile-page-count.pdf").path
        let walked = try await Tool.run("qpdf", ["--json", "--json-key=pages", file])
        let pages = try JSONSerialization.jsonObject(with: walked.stdout) as? [String: Any]
        #expect((pages?["pages"] as? [Any])?.count == 2)
        let output = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let info = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "info", file])
        let render = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "render", file, "-o", output.path, "--dpi", "10"])
        if backend == "poppler" {
            #expect(info.status == 65 && info.stderr.contains("finds no pages"), "\(info.stderr)")
            #expect(render.status == 65 && render.stderr.contains("finds no pages"), "\(render.stderr)")
        } else {
            #expect(info.status == 0, "\(info.stderr)")
            #expect(info.text.contains("Pages:        2") && info.text.contains("2  300 x 400"), "\(info.text)")
            #expect(render.status == 0, "\(render.stderr)")
            #expect(render.stderr.contains("hostile-page-count-1.png (85x110)") && render.stderr.contains("hostile-page-count-2.png (42x56)"), "\(render.stderr)")
        }
    }

    /// MuPDF 1.21 loops without end loading page 2 of a file the fuzzer found
    /// (Tests/Damaged/Found). In process nothing can stop it, so hostapp ends with a
    /// `limit exceeded` error once the engine has made no progress for twice --time-limit;
    /// isolated, only page 2 fails and the pages after it are read. Page 1 fails on its own
    /// ("cycle in page tree"): text and search report it and go on to page 2, with one
    /// worker or two.
    @Test func anEngineCaughtInALoopDoesNotHangHostApp() async throws {
        let file = DamagedSet.directory.appendingPathComponent("Found/mupdf-page-tree-loop.pdf").path
        for command in [["text", file, "--pages", "1-3"], ["search", file, "e"]] {
            for jobs in ["1", "2"] {
                let local = try await Tool.run(HostAppTests.executable, ["--renderer", "mupdf", "--time-limit", "2"] + command + ["--jobs", jobs])
                let errors = local.stderr.split(separator: "\n")
                #expect(local.status == 64, "\(command) --jobs \(jobs): \(local.stderr)")
                #expect(errors.first?.hasPrefix("hostapp: error: page 1: mupdf: MuPDF could not load page 1 (engine: cycle in page tree)") == true, "\(local.stderr)")
                #expect(errors.last?.hasPrefix("hostapp: error: \(file): the engine made no progress for 4 s (twice --time-limit)") == true, "\(local.stderr)")
            }
        }
        // Isolated, the limit counts from the engine process's ready message, so the time a
        // loaded machine takes to start a program is not in it: 5 s to open the file and
        // answer for page 1.
        let isolated = try await Tool.run(HostAppTests.executable, ["--renderer", "mupdf", "--isolate", "--time-limit", "5", "text", file, "--pages", "1-3"])
        let errors = isolated.stderr.split(separator: "\n")
        #expect(errors.count == 2, "\(isolated.stderr)")
        #expect(errors.first?.hasPrefix("hostapp: error: page 1: mupdf: MuPDF could not load page 1 (engine: cycle in page tree)") == true, "\(isolated.stderr)")
        #expect(errors.last?.hasSuffix("the engine took longer than the time limit of 5.0 s to read the text of page 2, and was stopped") == true, "\(isolated.stderr)")
        // Page 1 is damaged (65) and page 2 past its limit (64): the worst code is the exit code.
        #expect(isolated.status == 65, "\(isolated.stderr)")
    }

    /// An engine process caught in that loop, whose hostapp is killed (SIGKILL: nothing can
    /// stop its worker first), ends on its own once orphaned: it never computes on for
    /// ever. Before, it did, at a whole core.
    @Test func anOrphanedEngineProcessEnds() async throws {
        let file = DamagedSet.directory.appendingPathComponent("Found/mupdf-page-tree-loop.pdf").path
        let hostapp = try RunningProcess(HostAppTests.executable, ["--renderer", "mupdf", "--isolate", "--time-limit", "0", "text", file, "--pages", "2"])
        defer { hostapp.killAtOnce() }
        // Watched from a thread of its own, not from the cooperative pool, which a busy test
        // run can hold for longer than the worker takes to run out of memory (its loop also
        // allocates: about 100 s of processor time here, then MuPDF's allocation fails). The
        // engine processes are looked for again each time: on a busy machine the first one
        // seen may be one that has ended, and the page read by another.
        @Sendable func ticks(_ pid: Int32) -> Int {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return 0 }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 13 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0  // utime and stime
        }
        // Killed, from that thread too, once an engine process has computed for a second of
        // processor time: in the loop.
        let workers = try await onOwnThread { () -> [Int32] in
            for _ in 0..<1800 where hostapp.isRunning {
                let computing = ServeCommandTests.workerProcesses(of: hostapp.pid).map(\.pid).filter { ticks($0) >= 100 }
                if !computing.isEmpty {
                    hostapp.killAtOnce()
                    return computing
                }
                usleep(100_000)
            }
            return []
        }
        try #require(!workers.isEmpty, "no engine process computed: \(hostapp.errorOutput)")
        // The orphan is reaped by init (or this test run's subreaper), so its /proc entry goes;
        // a zombie left for a parent that never reaps counts as ended too.
        func running(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            return !stat[stat.index(after: close)...].hasPrefix(" Z")
        }
        for _ in 0..<600 where workers.contains(where: running) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let left = workers.filter(running)
        #expect(left.isEmpty, "engine processes still running a minute after their hostapp was killed: \(left)")
        for pid in left { kill(pid, SIGKILL) }
    }

    /// A page of 1e30 points, or of none, is read as US Letter by both engines; a page of
    /// 14,400 points at 150 dpi (30,000 pixels square) is past the pixel limit: an error
    /// before anything is allocated.
    @Test(arguments: Fixtures.backendIDs)
    func absurdAndHugePages(backend: String) async throws {
        let folder = try #require(DamagedSet.hostile)
        let output = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let absurd = try await Tool.run(
            HostAppTests.executable, ["--renderer", backend, "render", folder.appendingPathComponent("hostile-absurd-page.pdf").path, "-o", output.path])
        #expect(absurd.status == 0, "\(absurd.stderr)")
        #expect(absurd.stderr.contains("hostile-absurd-page-1.png (1275x1650)") && absurd.stderr.contains("hostile-absurd-page-2.png (1275x1650)"), "\(absurd.stderr)")
        let huge = try await Tool.run(
            HostAppTests.executable, ["--renderer", backend, "render", folder.appendingPathComponent("hostile-huge-page.pdf").path, "-o", output.path])
        #expect(huge.status == 64, "\(huge.stderr)")
        #expect(huge.stderr.contains("30,000 x 30,000 pixels, more than the limit of 268,435,456 pixels"), "\(huge.stderr)")
    }

    /// JavaScript and Launch actions never run, whatever command reads the document; an
    /// embedded file is never written.
    @Test(arguments: ["mupdf", "poppler", "auto"])
    func activeContentStaysInert(backend: String) async throws {
        let folder = try #require(DamagedSet.hostile)
        let marker = "/tmp/renderer-provider-javascript-ran"
        try? FileManager.default.removeItem(atPath: marker)
        let workspace = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: workspace) }
        for name in ["hostile-javascript.pdf", "hostile-embedded-file.pdf"] {
            let file = folder.appendingPathComponent(name).path
            for arguments in [["info", file], ["render", file, "-o", workspace.path, "--dpi", "20"], ["text", file], ["links", file],
                              ["annotations", "list", file], ["outline", file]] {
                let result = try await Tool.run(HostAppTests.executable, ["--renderer", backend] + arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(!result.text.contains("attached bytes"))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: marker))
        let written = try FileManager.default.contentsOfDirectory(atPath: workspace.path).sorted()
        #expect(written == ["hostile-embedded-file-1.png", "hostile-javascript-1.png"])
    }
}
