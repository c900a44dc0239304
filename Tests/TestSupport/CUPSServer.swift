import Foundation
import ProcessSpawning
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway CUPS print server for a test: Debian's scheduler (`cupsd -f`) with a
/// configuration of its own in a temporary folder, listening on a free loopback port, with
/// its own spool kept after each job (`PreserveJobFiles`), so a test reads exactly what a
/// printer was sent. Its MIME conversions are CUPS's types alone, without the conversions of
/// cups-filters: a queue then takes just what its PPD declares, so a "PDF printer" and a
/// "raster printer" really differ. Queues print to `/dev/null`. Stopped and removed when the
/// value goes. cupsd needs root (the tests run as root, as CI does).
public final class CUPSServer: Sendable {

    /// What a queue's PPD says it takes.
    public enum QueueKind: String, Sendable {
        /// PDF, passed to the device as it came.
        case pdf = "application/pdf"
        /// PWG raster only.
        case raster = "image/pwg-raster"
    }

    public let port: Int
    public let folder: String
    private let process: ChildProcess

    /// The server's address for `--server` and `PrintService(server:)`.
    public var address: String { "127.0.0.1:\(port)" }

    /// Makes the folder and starts the scheduler, on a thread of its own (``onOwnThread(_:)``);
    /// throws, saying why, when CUPS is not installed or does not answer within a minute.
    public static func start() async throws -> CUPSServer {
        try await onOwnThread { try CUPSServer() }
    }

    private init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/cupsd") else {
            throw RendererError(.fileNotFound, "CUPS's scheduler is not installed (make setup installs Debian's cups-daemon)")
        }
        let folder = NSTemporaryDirectory() + "cups-\(UUID().uuidString)"
        for sub in ["spool/tmp", "cache", "state", "log", "data/mime", "data/banners"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        // The filters run as lp, which must reach the folder.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try FileManager.default.copyItem(atPath: "/usr/share/cups/mime/mime.types", toPath: folder + "/data/mime/mime.types")
        try Self.template("cups-files.conf", ["FOLDER": folder]).write(toFile: folder + "/cups-files.conf", atomically: true, encoding: .utf8)
        var started: (Int, ChildProcess)?
        // The free port can be taken by another test between its pick and the server's bind:
        // then it does not answer there, and another port is tried.
        for _ in 1...3 where started == nil {
            let port = try FreePort.loopback()
            try Self.template("cupsd.conf", ["PORT": "\(port)"]).write(toFile: folder + "/cupsd.conf", atomically: true, encoding: .utf8)
            let process = try ChildProcess("/usr/sbin/cupsd", ["-f", "-c", folder + "/cupsd.conf", "-s", folder + "/cups-files.conf"])
            if Self.answers(port: port, while: process) {
                started = (port, process)
            } else {
                process.signal(SIGKILL)
                process.wait()
            }
        }
        guard let (port, process) = started else {
            let log = (try? String(contentsOfFile: folder + "/log/error_log", encoding: .utf8)) ?? ""
            throw RendererError(.ioFailure, "cupsd did not start: \(log.suffix(2000))")
        }
        (self.port, self.process, self.folder) = (port, process, folder)
    }

    /// Adds the queue `name`, taking what `kind` says, accepting jobs.
    public func addQueue(_ name: String, _ kind: QueueKind) async throws {
        let ppd = folder + "/\(name).ppd"
        try Self.template("queue.ppd", ["NAME": name, "FORMAT": kind.rawValue]).write(toFile: ppd, atomically: true, encoding: .utf8)
        try await admin("/usr/sbin/lpadmin", ["-p", name, "-E", "-v", "file:///dev/null", "-P", ppd])
    }

    /// Makes the queue `name` refuse new jobs.
    public func reject(_ name: String) async throws {
        try await admin("/usr/sbin/cupsreject", [name])
    }

    /// The document of job `id` as the server received it (its first document).
    public func spooledDocument(job id: Int) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: folder + String(format: "/spool/d%05d-001", id)))
    }

    /// The attributes of job `id` as `ipptool` reads them over IPP (none kept private, so
    /// the job's name shows): `name` to its value in ipptool's words (`copies` to `2`,
    /// `sides` to `two-sided-long-edge`).
    public func jobAttributes(_ id: Int) async throws -> [String: String] {
        let result = try await Tool.run("/usr/bin/ipptool", ["-tv", "ipp://127.0.0.1:\(port)/jobs/\(id)", "get-job-attributes.test"])
        var attributes: [String: String] = [:]
        for line in result.text.split(separator: "\n") {
            // "        copies (integer) = 2"
            let parts = line.trimmingCharacters(in: .whitespaces).components(separatedBy: " = ")
            guard parts.count == 2, let name = parts[0].split(separator: " ").first else { continue }
            attributes[String(name)] = parts[1]
        }
        guard !attributes.isEmpty else { throw RendererError(.ioFailure, "ipptool read no attribute of job \(id): \(result.text) \(result.stderr)") }
        return attributes
    }

    /// Stops the scheduler, as a crash would (SIGKILL: the test process blocks SIGTERM, and
    /// its children inherit that), and waits for it to end.
    public func stop() {
        process.signal(SIGKILL)
        process.wait()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func admin(_ program: String, _ arguments: [String]) async throws {
        let result = try await Tool.run(program, ["-h", address] + arguments)
        guard result.status == 0 else { throw RendererError(.ioFailure, "\(program) failed: \(result.stderr)") }
    }

    /// Whether the scheduler answers on `port` within a minute, asked every 50 ms, while
    /// `process` runs.
    private static func answers(port: Int, while process: ChildProcess) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            if let result = try? Tool.runBlocking("/usr/bin/lpstat", ["-h", "127.0.0.1:\(port)", "-r"]), result.text.contains("is running") { return true }
            usleep(50_000)
        }
        return false
    }

    /// The file `name` of `Tests/Fixtures/CUPS` (shared with the browser tests), each
    /// `@KEY@` replaced by its value.
    private static func template(_ name: String, _ values: [String: String]) throws -> String {
        var text = try String(contentsOfFile: Fixtures.path("CUPS/" + name), encoding: .utf8)
        for (key, value) in values { text = text.replacingOccurrences(of: "@\(key)@", with: value) }
        return text
    }
}
