import Foundation
import Testing
import TestSupport

/// `hostapp serve` as a user starts and stops it.
@Suite struct ServeCommandTests {
    static let token = "serve-command-token-0123456789"

    @Test func refusesWhatItCannotServe() async throws {
        let noPaths = try await Tool.run(HostAppTests.executable, ["serve"])
        #expect(noPaths.status == 64)
        let missing = try await Tool.run(HostAppTests.executable, ["serve", "/nonexistent/folder", "--port", "0"])
        #expect(missing.status == 74 && missing.stderr.contains("does not exist"))
        let vault = try await Tool.run(HostAppTests.executable, ["serve", Fixtures.path("text.pdf"), "--vault", "/tmp", "--key-file", "/tmp/k", "--port", "0"])
        #expect(vault.status == 64 && vault.stderr.contains("--vault"))
        let shortToken = NSTemporaryDirectory() + "short-token-\(UUID().uuidString)"
        try "abc\n".write(toFile: shortToken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: shortToken) }
        let weak = try await Tool.run(HostAppTests.executable, ["serve", Fixtures.path("text.pdf"), "--token-file", shortToken, "--port", "0"])
        #expect(weak.status == 64 && !weak.stderr.contains("abc\n"))
        let noGrace = try await Tool.run(HostAppTests.executable, ["serve", Fixtures.path("text.pdf"), "--shutdown-grace", "0", "--port", "0"])
        #expect(noGrace.status == 64 && noGrace.stderr.contains("--shutdown-grace"))

        // Trust anchors that hold no certificate: the server does not start (a deadline ends
        // the run if it does, which fails the test).
        let empty = NSTemporaryDirectory() + "empty-anchors-\(UUID().uuidString).pem"
        try "not a certificate\n".write(toFile: empty, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let untrusting = try RunningProcess(HostAppTests.executable, ["serve", Fixtures.path("text.pdf"), "--trust", empty, "--port", "0"])
        let status = await untrusting.exitStatus()
        if status == nil { untrusting.killAtOnce() }
        #expect(status != nil && status != 0 && untrusting.errorOutput.contains("holds no PEM certificate"), "\(untrusting.errorOutput)")
    }

    /// SIGTERM: the render in flight is answered, a connection that has sent nothing yet (a
    /// browser's preconnected socket) is closed at once, new connections are refused, and
    /// the process ends with status 0; the token is printed once, on stdout, never on
    /// stderr. The render has no time limit, the first head may take ten minutes and the stop
    /// as long, and the clients wait one or two: the test is about what comes, not how soon.
    /// Before, the silent connection held the shutdown for the whole head deadline.
    @Test func shutsDownGracefully() async throws {
        let folder = NSTemporaryDirectory() + "serve-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SlowPage.write(curves: 6_000, to: folder + "/slow.pdf")
        try (Self.token + "\n").write(toFile: folder + "/token", atomically: true, encoding: .utf8)

        let server = try RunningProcess(
            HostAppTests.executable, [
                "--log-level", "trace", "--time-limit", "0", "serve", folder + "/slow.pdf", "--port", "0", "--token-file", folder + "/token",
                "--reader-state", ":memory:", "--shutdown-grace", "600", "--request-head-timeout", "600",
            ])
        await server.waitForOutput { $0.contains("\n") }
        let firstLine = server.output
        let port = try #require(firstLine.firstMatch(of: /127\.0\.0\.1:(\d+)\//).map { Int($0.1)! }, "\(firstLine)")
        #expect(firstLine.contains("?token=\(Self.token)"))

        let silent = try RawHTTPConnection(port: port, timeout: 60)
        let slow = try RawHTTPConnection(port: port, timeout: 120)
        try slow.get("/api/documents/slow.pdf/pages/0/image?dpi=300", headers: ["Authorization": "Bearer \(Self.token)"])
        // SIGTERM only once the render is in flight: a request still unread is not one.
        #expect(await server.waitForErrorOutput { $0.contains("GET /api/documents/slow.pdf/pages/0/image arrived") })
        let stopped = Task { await server.stop(timeout: .seconds(120)) }  // SIGTERM
        let answer = await slow.read { data in
            guard let end = data.range(of: Data("\r\n\r\n".utf8)),
                let length = String(decoding: data[..<end.lowerBound], as: UTF8.self).firstMatch(of: /Content-Length: (\d+)/)
            else { return false }
            return data.count - end.upperBound >= Int(length.1)!
        }
        let head = String(decoding: answer.prefix(200), as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
        #expect(answer.range(of: Data([0x89, 0x50, 0x4E, 0x47])) != nil)  // the PNG signature

        _ = await silent.read { _ in false }
        #expect(silent.closedByServer, "the connection that sent nothing was left open")
        #expect(await stopped.value == 0)
        #expect(throws: (any Error).self) { try RawHTTPConnection(port: port) }
        #expect(!server.errorOutput.contains(Self.token))
    }

    /// A server whose process may open 128 file descriptors, given 300 connections that hold
    /// a request head half sent: the connections past its limit (derived from the descriptor
    /// limit) are answered 503 at once, it never runs out of descriptors or stops, and once
    /// the clients leave, the owner's page image is drawn. Before, the owner waited and the
    /// server died on a trap in libdispatch.
    @Test func connectionsThatHoldOnLeaveTheServerItsDescriptors() async throws {
        let folder = NSTemporaryDirectory() + "serve-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try (Self.token + "\n").write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let server = try RunningProcess("/bin/sh", [
            "-c", "ulimit -n 128 && exec \"$0\" serve \"$1\" --port 0 --token-file \"$2\" --reader-state :memory:",
            HostAppTests.executable, Fixtures.path("text.pdf"), folder + "/token",
        ])
        defer { server.killAtOnce() }
        await server.waitForOutput { $0.contains("\n") }
        let port = try #require(server.output.firstMatch(of: /127\.0\.0\.1:(\d+)\//).map { Int($0.1)! }, "\(server.output)")
        var held: [RawHTTPConnection] = []
        for _ in 0..<300 {
            let connection = try RawHTTPConnection(port: port, timeout: 120)
            try? connection.sendText("GET /api/health HTTP/1.1\r\nHost: a\r\nX-Waiting: ")
            held.append(connection)
        }
        let last = String(decoding: await held[299].read { _ in false }, as: UTF8.self)
        #expect(last.hasPrefix("HTTP/1.1 503") && last.contains("too-many-connections"), "\(last)")
        for connection in held { connection.close() }
        // The server hears of the closes in its own time: the owner asks until answered.
        var answer = ""
        for _ in 0..<600 where !answer.hasPrefix("HTTP/1.1 200") {
            let owner = try RawHTTPConnection(port: port, timeout: 120)
            try owner.get("/api/documents/text.pdf/pages/0/image?dpi=30", headers: ["Authorization": "Bearer \(Self.token)"])
            answer = String(decoding: await owner.read { _ in false }.prefix(200), as: UTF8.self)
            if !answer.hasPrefix("HTTP/1.1 200") { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        #expect(server.isRunning, "\(server.errorOutput.suffix(2000))")
    }

    /// Uploads are strangers' files: `serve --uploads` opens them in engine processes of
    /// their own (hostapp's `worker`, under the memory limit), while the served files stay
    /// in the server's process when `--isolate` is not given.
    @Test func uploadsAreOpenedInEngineProcesses() async throws {
        let folder = NSTemporaryDirectory() + "serve-uploads-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/docs", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Fixtures.path("text.pdf"), toPath: folder + "/docs/text.pdf")
        try (Self.token + "\n").write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let server = try RunningProcess(
            HostAppTests.executable, [
                "serve", folder + "/docs", "--uploads", "--upload-folder", folder + "/uploads", "--port", "0", "--token-file", folder + "/token",
                "--reader-state", ":memory:",
            ])
        defer { server.killAtOnce() }
        await server.waitForOutput { $0.contains("\n") }
        let port = try #require(server.output.firstMatch(of: /127\.0\.0\.1:(\d+)\//).map { Int($0.1)! }, "\(server.output)")
        func curl(_ arguments: String...) async throws -> String {
            try await Tool.run("curl", ["-s", "-H", "Authorization: Bearer \(Self.token)"] + arguments).text
        }
        let served = try await curl("-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/api/documents/docs%2Ftext.pdf/pages/0/image?dpi=20")
        #expect(served == "200")
        #expect(Self.workers(of: server.pid).isEmpty, "a served file is read in the server's process")

        let answer = try await curl(
            "-H", "Content-Type: application/pdf", "--data-binary", "@" + Fixtures.path("text.pdf"), "http://127.0.0.1:\(port)/api/uploads")
        let id = try #require((try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])?["id"] as? String, "\(answer)")
        let encoded = id.replacingOccurrences(of: "/", with: "%2F")
        let uploaded = try await curl("-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/api/documents/\(encoded)/pages/0/image?dpi=20")
        #expect(uploaded == "200")
        // The upload's engine document stays open for the next request, in its own process.
        let workers = Self.workers(of: server.pid)
        #expect(!workers.isEmpty && workers.allSatisfy { $0.contains("worker") }, "\(workers)")
        // Its annotations are read through a session, and that session's engines are the
        // isolated ones too: the server itself never holds the upload open.
        let annotations = try await curl("-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/api/documents/\(encoded)/annotations")
        #expect(annotations == "200")
        let held = Self.openFiles(of: server.pid).filter { $0.hasPrefix(folder + "/uploads/") }
        #expect(held.isEmpty, "the server's own process holds \(held)")
        // A picture is made into a PDF by an engine process too (the server links MuPDF, but
        // uploads go to the isolated renderers), and is then read as any upload.
        let picture = try await curl(
            "-H", "Content-Type: image/png", "--data-binary", "@" + Fixtures.path("image.png"), "http://127.0.0.1:\(port)/api/uploads")
        let pictureID = try #require((try JSONSerialization.jsonObject(with: Data(picture.utf8)) as? [String: Any])?["id"] as? String, "\(picture)")
        let drawn = try await curl(
            "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/api/documents/\(pictureID.replacingOccurrences(of: "/", with: "%2F"))/pages/0/image?dpi=20")
        #expect(drawn == "200")
    }

    /// The files `pid` holds open, as /proc names them.
    static func openFiles(of pid: Int32) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
    }

    /// The command lines of the child processes of `pid` that are hostapp's engine workers.
    static func workers(of pid: Int32) -> [String] {
        workerProcesses(of: pid).map(\.command)
    }

    /// The child processes of `pid` that are hostapp's engine workers: their ids and command lines.
    static func workerProcesses(of pid: Int32) -> [(pid: Int32, command: String)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> (Int32, String)? in
            guard let child = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After the command's name in parentheses: the state, then the parent's id.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, Int32(fields[1]) == pid,
                let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline"))
            else { return nil }
            let line = String(decoding: command.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return line.contains(" worker") ? (child, line) : nil
        }
    }
}
