import Foundation
import ProcessSpawning
import Testing
import TestSupport

/// Ctrl-C during a long `hostapp render`, as a user sends it.
@Suite("hostapp stopped by Ctrl-C")
struct InterruptTests {
    /// long.pdf at 1200 dpi (3334 x 3334 pixels a page, 100 pages) takes many seconds; once
    /// the first page is written, SIGINT stops the run: exit code 130, no temporary file
    /// left, and every file there is a whole page.
    @Test(arguments: ["mupdf", "poppler"], [1, 2])
    func renderStopsAndLeavesOnlyWholeFiles(backend: String, jobs: Int) throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try ChildProcess(HostAppTests.executable, [
            "--renderer", backend, "render", Fixtures.path("long.pdf"), "--dpi", "1200", "--gray", "--format", "ppm",
            "--jobs", String(jobs), "-o", directory.path,
        ])
        let deadline = Date().addingTimeInterval(60)
        while try Self.pages(in: directory).isEmpty && process.isRunning && Date() < deadline { usleep(10_000) }
        #expect(process.isRunning, "the run ended before it could be interrupted")
        process.signal(SIGINT)
        #expect(process.wait() == .exited(130))
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(entries.allSatisfy { $0.hasPrefix("long-") && $0.hasSuffix(".pgm") }, "left behind: \(entries)")
        #expect(!entries.isEmpty && entries.count < 100)
        for entry in entries {
            let image = try Netpbm(Data(contentsOf: directory.appendingPathComponent(entry)))
            #expect((image.width, image.height, image.channels) == (3334, 3334, 1), "\(entry)")
        }
    }

    private static func pages(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".pgm") }
    }
}
