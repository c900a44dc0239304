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

    /// `ocr --jobs 1` on the two-page scan (``ScannedPages``): SIGINT once the first page is
    /// read (its progress line on stderr) stops the run while the second is read: exit code
    /// 130, and no output file, whole or partial.
    @Test func ocrStopsAndWritesNothing() throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("searchable.pdf").path
        let errors = try ProcessPipe()
        let process = try ChildProcess(
            HostAppTests.executable, ["ocr", "--jobs", "1", ScannedPages.path, "-o", output], standardError: .descriptor(errors.writing))
        errors.closeWriting()
        var said = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: said, as: UTF8.self).contains("page 1:") {
            let count = read(errors.reading, &buffer, buffer.count)
            if count <= 0 { break }
            said.append(contentsOf: buffer[0..<count])
        }
        #expect(process.isRunning, "the run ended before it could be interrupted: \(String(decoding: said, as: UTF8.self))")
        process.signal(SIGINT)
        #expect(process.wait() == .exited(130))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    private static func pages(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".pgm") }
    }
}
