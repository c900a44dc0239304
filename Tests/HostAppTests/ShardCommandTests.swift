import Foundation
import Testing
import TestSupport

/// A conversion spread over several processes, as a Kubernetes indexed Job or a Slurm array
/// runs it (`--shard`), one shard killed and rerun (`--resume`), checked by `hostapp manifest
/// check`; all against one process converting the whole document.
@Suite("hostapp render and text in shards")
struct ShardCommandTests {
    let executable = HostAppTests.executable

    func hostapp(_ arguments: String..., environment: [String: String] = [:]) async throws -> Tool.Result {
        try await Tool.run(executable, arguments, environment: environment)
    }

    /// Three shards of long.pdf (100 pages) rendered in parallel; one is killed with SIGKILL
    /// after its second page and rerun with --resume, which writes only the pages its
    /// manifest lacks. The three shards' files then equal one whole run's, byte for byte.
    @Test func parallelShardsOneKilledAndResumedEqualOneRun() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = Fixtures.path("long.pdf")
        let whole = directory.appendingPathComponent("whole").path, shards = directory.appendingPathComponent("shards").path
        #expect(try await hostapp("--renderer", "mupdf", "render", document, "-r", "300", "-o", whole).status == 0)

        let arguments = { (shard: Int) in ["--renderer", "mupdf", "render", document, "-r", "300", "--jobs", "1", "--shard", "\(shard)/3", "-o", shards] }
        let processes = try (0..<3).map { try RunningProcess(executable, arguments($0)) }
        // The manifest is written line by line as pages finish (stdout, a pipe here, is not).
        let killedManifest = shards + "/hostapp-manifest-1-of-3.jsonl"
        func recordedPages() -> Int {
            ((try? String(contentsOfFile: killedManifest, encoding: .utf8))?.split(separator: "\n").count ?? 1) - 1
        }
        // Watched without giving up this thread: in a full test run the other tests keep the
        // concurrency pool busy, and a sleeping task may resume only after the shard is done.
        let deadline = ContinuousClock.now + .seconds(120)
        while recordedPages() < 2 && processes[1].isRunning && ContinuousClock.now < deadline { usleep(1000) }
        processes[1].killAtOnce()
        for process in [processes[0], processes[2]] { #expect(await process.exitStatus() == 0, "\(process.errorOutput)") }

        let recorded = recordedPages()
        // Shard 1 of 3 holds pages 34-66: 33 pages, of which the kill left at least 2 and
        // (each 834 x 834 page taking milliseconds, the kill within one) far from all.
        #expect(recorded >= 2 && recorded < 33, "the kill came mid-run: \(recorded) pages recorded")
        let incomplete = try await hostapp("manifest", "check", shards)
        #expect(incomplete.status == 1 && incomplete.text.contains("not written by shard 1 of 3"), "\(incomplete.text)")

        let resumed = try await Tool.run(executable, arguments(1) + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming shard 1 of 3: \(recorded) of 33 pages already written"), "\(resumed.stderr)")
        #expect(resumed.stderr.split(separator: "\n").filter { $0.hasPrefix("page ") }.count == 33 - recorded, "only the missing pages are written again")
        let check = try await hostapp("manifest", "check", shards)
        #expect(check.status == 0 && check.text.contains("whole: 3 shards hold all 100 pages"), "\(check.text)")

        let files = try FileManager.default.contentsOfDirectory(atPath: shards).filter { $0.hasSuffix(".png") }.sorted()
        #expect(files == (try FileManager.default.contentsOfDirectory(atPath: whole).sorted()))
        let differing = try files.filter {
            try Data(contentsOf: URL(fileURLWithPath: shards + "/" + $0)) != Data(contentsOf: URL(fileURLWithPath: whole + "/" + $0))
        }
        #expect(files.count == 100 && differing.isEmpty, "\(differing)")
    }

    /// Text in two shards; a changed, a removed and a foreign file are each found by the
    /// check, and --resume writes exactly the pages whose files no longer match.
    @Test func theCheckFindsChangedMissingAndForeignFilesAndResumeMendsThem() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.path
        let document = Fixtures.path("long.pdf")
        for shard in 0..<2 {
            let result = try await hostapp("--renderer", "poppler", "text", document, "--shard", "\(shard)/2", "-o", out)
            #expect(result.status == 0 && result.stderr.split(separator: "\n").filter { $0.hasPrefix("page ") }.count == 50, "\(result.stderr)")
        }
        #expect(try await hostapp("manifest", "check", out).status == 0)
        // The file holds the page's text as stdout shows it, less the newline print adds.
        let printed = try await hostapp("--renderer", "poppler", "text", document, "--pages", "7").text
        let file = try String(contentsOfFile: out + "/long-007.txt", encoding: .utf8)
        #expect(!file.isEmpty && (printed == file || printed == file + "\n"), "\(file)")

        try "changed".write(toFile: out + "/long-007.txt", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: out + "/long-080.txt")
        let broken = try await hostapp("manifest", "check", out, "--json")
        #expect(broken.status == 1)
        let report = try JSONSerialization.jsonObject(with: broken.stdout) as? [String: Any]
        let problems = report?["problems"] as? [String] ?? []
        #expect(problems.count == 2 && problems.contains { $0.hasPrefix("page 7:") } && problems.contains { $0.hasPrefix("page 80:") }, "\(problems)")
        #expect(report?["verified"] as? Int == 98)

        let first = try await hostapp("--renderer", "poppler", "text", document, "--shard", "0/2", "--resume", "-o", out)
        #expect(first.text.isEmpty && first.stderr.contains("page 7: \(out)/long-007.txt\n") && !first.stderr.contains("page 80:"), "\(first.stderr)")
        let second = try await hostapp("--renderer", "poppler", "text", document, "--shard", "1/2", "--resume", "-o", out)
        #expect(second.text.isEmpty && second.stderr.contains("page 80: \(out)/long-080.txt\n") && !second.stderr.contains("page 7:"), "\(second.stderr)")
        #expect(try await hostapp("manifest", "check", out).status == 0)

        // A shard of another split (3 shards) in the same directory is another conversion.
        #expect(try await hostapp("--renderer", "poppler", "text", document, "--pages", "1-2", "--shard", "0/3", "-o", out).status == 0)
        let mixed = try await hostapp("manifest", "check", out)
        #expect(mixed.status == 1 && mixed.text.contains("records another conversion"), "\(mixed.text)")
    }

    /// A rerun with other settings does not trust the old files: every page is written again.
    @Test func resumingWithOtherSettingsStartsAnew() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = Fixtures.path("text.pdf")
        #expect(try await hostapp("render", document, "-r", "20", "--resume", "-o", directory.path).stderr.split(separator: "\n").filter { $0.hasPrefix("page ") }.count == 3)
        let again = try await hostapp("render", document, "-r", "20", "--resume", "-o", directory.path)
        #expect(again.status == 0 && !again.stderr.contains("page 1:") && again.stderr.contains("3 of 3 pages already written"), "\(again.stderr)")
        let other = try await hostapp("render", document, "-r", "30", "--resume", "-o", directory.path)
        #expect(other.stderr.split(separator: "\n").filter { $0.hasPrefix("page ") }.count == 3 && other.stderr.contains("starting it anew"), "\(other.stderr)")
    }

    /// The split: balanced by count (lengths differing by at most one), the same index from
    /// Kubernetes' and Slurm's variables, balanced by an earlier run's costs when given.
    @Test func shardsAreBalancedAndTakeTheirIndexFromTheScheduler() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = Fixtures.path("long.pdf")
        func pages(_ shard: String, environment: [String: String] = [:], _ extra: [String] = []) async throws -> [Int] {
            let out = directory.appendingPathComponent(UUID().uuidString).path
            let result = try await Tool.run(executable, ["text", document, "--pages", "1-10", "--shard", shard, "-o", out] + extra, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr.split(separator: "\n").compactMap { $0.firstMatch(of: /^page (\d+):/).map { Int($0.1)! } }
        }
        #expect(try await (0..<4).asyncMap { try await pages("\($0)/4") } == [[1, 2], [3, 4, 5], [6, 7], [8, 9, 10]])
        #expect(try await pages("auto/4", environment: ["JOB_COMPLETION_INDEX": "2"]) == [6, 7])
        #expect(try await pages("auto/4", environment: ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1"]) == [6, 7])
        #expect(try await pages("auto/4", environment: ["SLURM_ARRAY_TASK_ID": "3"]) == [8, 9, 10])

        // An earlier run in which page 1 took 10 s and every other 0.1 s: page 1 is a shard's
        // whole share.
        let costs = directory.appendingPathComponent("costs.jsonl").path
        var lines = [#"{"assigned":[],"command":"text","document":"x","manifest":1,"of":1,"selected":[],"settings":"","shard":0}"#]
        for page in 1...10 {
            lines.append(#"{"bytes":1,"file":"f","page":\#(page),"seconds":\#(page == 1 ? 10 : 0.1),"sha256":"0"}"#)
        }
        try lines.joined(separator: "\n").write(toFile: costs, atomically: true, encoding: .utf8)
        #expect(try await pages("0/2", ["--shard-costs", costs]) == [1])
        #expect(try await pages("1/2", ["--shard-costs", costs]) == Array(2...10))

        for (shard, environment, message) in [
            ("4/4", [String: String](), "from 0 to 3"), ("1/0", [:], "K/N or auto/N"), ("auto/4", [:], "JOB_COMPLETION_INDEX"),
            ("auto/4", ["JOB_COMPLETION_INDEX": "9"], "from 0 to 3"),
        ] {
            let result = try await Tool.run(executable, ["render", document, "--shard", shard, "-o", directory.path], environment: environment)
            #expect(result.status == 64 && result.stderr.contains(message), "\(shard): \(result.stderr)")
        }
        let noOutput = try await hostapp("text", document, "--shard", "0/2")
        #expect(noOutput.status == 64 && noOutput.stderr.contains("need --output"), "\(noOutput.stderr)")
    }

    /// examples/slurm/render-array.sh, run once per task id of its `--array` with the
    /// variables Slurm sets: the tasks' shards together are the whole document.
    @Test func theSlurmExampleConvertsTheWholeDocument() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = Fixtures.root.appendingPathComponent("examples/slurm/render-array.sh").path
        let text = try String(contentsOfFile: script, encoding: .utf8)
        let range = try #require(text.firstMatch(of: /#SBATCH --array=(\d+)-(\d+)/))
        let ids = Int(range.1)!...Int(range.2)!
        let out = directory.appendingPathComponent("out").path
        for id in ids {
            let result = try await Tool.run("/bin/bash", [script], environment: [
                "DOC": Fixtures.path("long.pdf"), "OUT": out, "HOSTAPP": executable, "SLURM_ARRAY_TASK_ID": "\(id)",
                "SLURM_ARRAY_TASK_MIN": "\(ids.lowerBound)", "SLURM_ARRAY_TASK_COUNT": "\(ids.count)", "SLURM_CPUS_PER_TASK": "2",
            ])
            #expect(result.status == 0, "task \(id): \(result.stderr)")
        }
        let check = try await hostapp("manifest", "check", out)
        #expect(check.status == 0 && check.text.contains("whole: \(ids.count) shards hold all 100 pages"), "\(check.text)")
    }

    /// examples/kubernetes/render-job.yaml: an indexed Job whose container command, run once
    /// per completion index with JOB_COMPLETION_INDEX set (the volumes' mount paths mapped to
    /// folders here), converts the whole document, and whose check Job then passes.
    @Test func theKubernetesExampleConvertsTheWholeDocument() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = Fixtures.root.appendingPathComponent("examples/kubernetes/render-job.yaml").path
        let parsed = try await Tool.run("python3", ["-c", "import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))", manifest])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let jobs = try #require(try JSONSerialization.jsonObject(with: parsed.stdout) as? [[String: Any]])
        #expect(jobs.count == 2)
        func spec(_ job: [String: Any]) -> [String: Any] { job["spec"] as? [String: Any] ?? [:] }
        func command(_ job: [String: Any]) -> [String] {
            let pod = (spec(job)["template"] as? [String: Any])?["spec"] as? [String: Any]
            return ((pod?["containers"] as? [[String: Any]])?.first?["command"] as? [String]) ?? []
        }
        #expect(spec(jobs[0])["completionMode"] as? String == "Indexed")
        let completions = try #require(spec(jobs[0])["completions"] as? Int)
        let data = directory.appendingPathComponent("data").path, out = directory.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let render = command(jobs[0])
        let document = try #require(render.first { $0.hasPrefix("/data/") })
        try FileManager.default.copyItem(atPath: Fixtures.path("long.pdf"), toPath: data + document.dropFirst("/data".count))
        func local(_ arguments: [String]) -> [String] {
            arguments.dropFirst().map { $0.replacingOccurrences(of: "/data", with: data).replacingOccurrences(of: "/out", with: out) }
        }
        #expect(render.first == "hostapp" && render.contains("auto/\(completions)"), "\(render)")
        for index in 0..<completions {
            let result = try await Tool.run(executable, local(render), environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            #expect(result.status == 0, "index \(index): \(result.stderr)")
        }
        let check = try await Tool.run(executable, local(command(jobs[1])))
        #expect(check.status == 0 && check.text.contains("hold all 100 pages"), "\(check.text)")
    }
}
