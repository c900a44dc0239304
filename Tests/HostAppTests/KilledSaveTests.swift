import Foundation
import ProcessSpawning
import Testing
import TestSupport

/// `hostapp annotations add` killed with SIGKILL at moments spread over its save in place:
/// the file is always the old one byte for byte or a complete new version, and a later save
/// removes what a killed one left behind.
@Suite("Saves killed at moments spread over the save")
struct KilledSaveTests {
    /// The moments follow the save's progress, not the clock, so a slow machine moves them
    /// with it: five trials are killed as soon as they start (before any saving), six once
    /// the new file being written (`.target.pdf.PID-XXXXXX.partial`) holds a random part of
    /// the old file's size, and five once the new file has replaced the old one.
    ///
    /// The new version cannot be compared byte for byte with a reference (each save writes a
    /// new /NM and new dates), so a file that is not the old one must be a whole new one:
    /// `qpdf --check` passes, it holds exactly one annotation more than the old file, with
    /// the contents added, and (for an incremental save) it starts with the old bytes.
    @Test(arguments: [("mupdf", "automatic"), ("mupdf", "rewrite"), ("poppler", "automatic")])
    func theFileIsOldOrNewNeverBroken(backend: String, mode: String) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("target.pdf").path
        // 5 MB of page content makes writing the new file take a good part of each run.
        try SlowPage.write(curves: 100_000, to: path)
        var generator = SystemRandomNumberGenerator()
        var outcomes = (old: 0, new: 0)
        for trial in 0..<16 {
            let old = try Data(contentsOf: URL(fileURLWithPath: path))
            let before = try await annotationCount(path, backend: backend)
            let process = try ChildProcess(HostAppTests.executable, [
                "--renderer", backend, "annotations", "add", path, "--page", "1", "--kind", "square",
                "--rect", "10,10,50,50", "--contents", "trial \(trial)", "--save-mode", mode,
            ])
            let partial = ".target.pdf.\(process.pid)-"
            switch trial {
            case 0..<5:
                break
            case 5..<11:
                let part = Double.random(in: 0..<1, using: &generator) * Double(old.count)
                waitWhile(process) {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                    guard let name = names.first(where: { $0.hasPrefix(partial) }) else { return true }
                    let size = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int) ?? 0
                    return Double(size) < part
                }
            default:
                waitWhile(process) { (try? Data(contentsOf: URL(fileURLWithPath: path))) == old }
            }
            process.signal(SIGKILL)
            process.wait()
            let now = try Data(contentsOf: URL(fileURLWithPath: path))
            if now == old {
                outcomes.old += 1
                continue
            }
            outcomes.new += 1
            let check = try await Tool.run("qpdf", ["--check", path])
            #expect(check.status == 0, "trial \(trial): qpdf --check: \(check.text)")
            #expect(try await annotationCount(path, backend: backend) == before + 1, "trial \(trial)")
            #expect(try await Tool.run(HostAppTests.executable, ["annotations", "list", path]).text.contains("trial \(trial)"))
            if mode == "automatic" { #expect(now.starts(with: old), "trial \(trial): an incremental save keeps the old bytes") }
        }
        // Killed at once, a save leaves the old file; killed after the replacement, the new one.
        #expect(outcomes.old >= 5 && outcomes.new >= 5, "\(outcomes)")
        // A completed save removes the temporary files killed ones left.
        let finish = try await Tool.run(
            HostAppTests.executable, ["--renderer", backend, "annotations", "add", path, "--page", "1", "--kind", "square", "--rect", "60,60,20,20"])
        #expect(finish.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["target.pdf"])
    }

    /// Looks at `condition` every millisecond while it holds and `process` runs, for at most
    /// two minutes (a deadline only against a hung process: the save ends long before).
    private func waitWhile(_ process: ChildProcess, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, condition(), Date() < deadline { usleep(1_000) }
    }

    private func annotationCount(_ path: String, backend: String) async throws -> Int {
        let list = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "annotations", "list", "--json", path])
        return (try JSONSerialization.jsonObject(with: list.stdout) as? [Any])?.count ?? -1
    }
}
