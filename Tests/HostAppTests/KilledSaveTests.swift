import Foundation
import Testing
import TestSupport

/// `hostapp annotations add` killed with SIGKILL at random moments while it saves in place:
/// the file is always the old one byte for byte or a complete new version, and a later save
/// removes what a killed one left behind.
@Suite("Saves killed at random moments")
struct KilledSaveTests {
    /// The new version cannot be compared byte for byte with a reference (each save writes a
    /// new /NM and new dates), so a file that is not the old one must be a whole new one:
    /// `qpdf --check` passes, it holds exactly one annotation more than the old file, with
    /// the contents added, and (for an incremental save) it starts with the old bytes.
    @Test(arguments: [("mupdf", "automatic"), ("mupdf", "rewrite"), ("poppler", "automatic")])
    func theFileIsOldOrNewNeverBroken(backend: String, mode: String) throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("target.pdf").path
        // 5 MB of page content makes the save itself take a good part of each run.
        try SlowPage.write(curves: 100_000, to: path)
        // How long an uninterrupted run takes here, measured on a copy.
        let copy = directory.appendingPathComponent("copy.pdf").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let started = Date()
        let whole = try Tool.run(HostAppTests.executable, ["--backend", backend, "annotations", "add", copy, "--page", "1", "--kind", "square", "--rect", "1,1,5,5", "--save-mode", mode])
        let duration = Date().timeIntervalSince(started)
        #expect(whole.status == 0)
        try FileManager.default.removeItem(atPath: copy)
        var generator = SystemRandomNumberGenerator()
        var outcomes = (old: 0, new: 0)
        for trial in 0..<16 {
            let old = try Data(contentsOf: URL(fileURLWithPath: path))
            let before = try annotationCount(path, backend: backend)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: HostAppTests.executable)
            process.arguments = [
                "--backend", backend, "annotations", "add", path, "--page", "1", "--kind", "square",
                "--rect", "10,10,50,50", "--contents", "trial \(trial)", "--save-mode", mode,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Spread over the run, from its start to well past the time it took uninterrupted:
            // trial i at a random moment of the i-th of 16 equal parts of 1.6 times that.
            let part = duration * 1.6 / 16
            Thread.sleep(forTimeInterval: part * (Double(trial) + Double.random(in: 0..<1, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try Data(contentsOf: URL(fileURLWithPath: path))
            if now == old {
                outcomes.old += 1
                continue
            }
            outcomes.new += 1
            let check = try Tool.run("qpdf", ["--check", path])
            #expect(check.status == 0, "trial \(trial): qpdf --check: \(check.text)")
            #expect(try annotationCount(path, backend: backend) == before + 1, "trial \(trial)")
            #expect(try Tool.run(HostAppTests.executable, ["annotations", "list", path]).text.contains("trial \(trial)"))
            if mode == "automatic" { #expect(now.starts(with: old), "trial \(trial): an incremental save keeps the old bytes") }
        }
        // Both outcomes occur: the first parts end before the save, the last after it.
        #expect(outcomes.old > 0 && outcomes.new > 0, "\(outcomes)")
        // A completed save removes the temporary files killed ones left.
        let finish = try Tool.run(
            HostAppTests.executable, ["--backend", backend, "annotations", "add", path, "--page", "1", "--kind", "square", "--rect", "60,60,20,20"])
        #expect(finish.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["target.pdf"])
    }

    private func annotationCount(_ path: String, backend: String) throws -> Int {
        let list = try Tool.run(HostAppTests.executable, ["--backend", backend, "annotations", "list", "--json", path])
        return (try JSONSerialization.jsonObject(with: list.stdout) as? [Any])?.count ?? -1
    }
}
