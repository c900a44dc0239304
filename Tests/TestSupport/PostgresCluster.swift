import Foundation
import RendererProvider

/// A throwaway PostgreSQL cluster for a test: Debian's server (`/usr/lib/postgresql/N/bin`),
/// made with `initdb` in a temporary folder and run with `pg_ctl` on a free loopback port,
/// as an unprivileged user (`postgres`, or `nobody`, when the tests run as root, since
/// PostgreSQL refuses to run as root). Trust authentication, loopback only, fsync off: a
/// cluster for one test, stopped and removed when the value goes.
public final class PostgresCluster: Sendable {
    /// Its port on 127.0.0.1.
    public let port: Int
    private let folder: String
    private let binaries: String
    private let user: String?

    /// The address of its `postgres` database, as user `renderer`.
    public var url: String { "postgres://renderer@127.0.0.1:\(port)/postgres?sslmode=disable" }

    /// Makes and starts the cluster, on a thread of its own (``onOwnThread(_:)``); throws,
    /// saying why, when PostgreSQL is not installed or does not start (the tests that need it
    /// then fail with that message).
    public static func start() async throws -> PostgresCluster {
        try await onOwnThread { try PostgresCluster() }
    }

    private init() throws {
        let installed = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        guard let version = installed?.last(where: { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }) else {
            throw RendererError(.fileNotFound, "PostgreSQL's server is not installed (make setup installs Debian's postgresql)")
        }
        let binaries = "/usr/lib/postgresql/\(version)/bin"
        let folder = NSTemporaryDirectory() + "postgres-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var user: String?
        if getuid() == 0 {
            let name = ["postgres", "nobody"].first { (name: String) in getpwnam(name) != nil } ?? "nobody"
            user = name
            try FileManager.default.setAttributes([.ownerAccountName: name], ofItemAtPath: folder)
        }
        func run(_ program: String, _ arguments: [String]) throws {
            try Self.run(program, arguments, binaries: binaries, folder: folder, user: user)
        }
        try run("initdb", ["-D", folder + "/data", "-U", "renderer", "--auth=trust", "-E", "UTF8", "--no-sync"])
        // The free port can be taken by another test between its pick and the server's bind:
        // then the server says so in its log, and another port is tried.
        var port = 0
        for attempt in 1...5 {
            port = try FreePort.loopback()
            try? FileManager.default.removeItem(atPath: folder + "/server.log")
            do {
                try run("pg_ctl", [
                    "-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60",
                    "-o", "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off", "start",
                ])
                break
            } catch let error as RendererError where attempt < 5 && error.message.contains("Address already in use") {
                continue
            }
        }
        (self.port, self.folder, self.binaries, self.user) = (port, folder, binaries, user)
    }

    /// Runs `sql` through `psql` as user `renderer`; returns what it printed (unaligned,
    /// tuples only).
    @discardableResult
    public func query(_ sql: String) async throws -> String {
        let result = try await Tool.run(binaries + "/psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "renderer", "-d", "postgres", "-Atc", sql])
        guard result.status == 0 else { throw RendererError(.ioFailure, "psql failed: \(result.stderr)") }
        return result.text
    }

    /// Stops the cluster (fast shutdown); removing the folder is left to `deinit`.
    public func stop() {
        try? Self.run("pg_ctl", ["-D", folder + "/data", "-m", "fast", "-w", "stop"], binaries: binaries, folder: folder, user: user)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs one of the server's programs (in `binaries`) as `user`, through `/bin/sh` and
    /// `system(3)`, its output into a file in `folder`. Not through `Process`: the server
    /// that `pg_ctl start` leaves running keeps what it inherited, and `Process` then waited
    /// for ever. Every word here is made by this type (paths of its own folder, numbers), so
    /// single quotes are quoting enough.
    private static func run(_ program: String, _ arguments: [String], binaries: String, folder: String, user: String?) throws {
        let output = folder + "/\(program).out"
        let words = (user.map { ["/usr/sbin/runuser", "-u", $0, "--"] } ?? []) + [binaries + "/" + program] + arguments
        let command = words.map { "'\($0)'" }.joined(separator: " ") + " < /dev/null > '\(output)' 2>&1"
        let status = system(command)
        guard status == 0 else {
            let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
            throw RendererError(.ioFailure, "PostgreSQL's \(program) failed (\(status)): \(said) \(log.suffix(2000))")
        }
    }
}

/// Free ports on the loopback interface.
public enum FreePort {
    /// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
    public static func loopback() throws -> Int {
        try ReservedPort().port  // released when the value goes, here
    }
}
