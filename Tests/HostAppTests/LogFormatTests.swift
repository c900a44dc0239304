import Foundation
import Testing
import TestSupport

/// `--log-format json`: every message on stderr is one JSON object a line, the server's (a
/// line per request, named by its request id) and the engines' (in process and in engine
/// processes) alike.
@Suite struct LogFormatTests {
    static let token = "log-format-token-0123456789"

    /// Each line of `output` read as a JSON object; a line that is not one fails the test.
    static func objects(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON object: \(line)")
            guard let object else { return nil }
            for field in ["time", "level", "label", "source", "message"] { #expect(object[field] is String, "\(field) missing: \(line)") }
            return object
        }
    }

    /// The request id a load balancer sends names the request in the answer and the log; one
    /// that could say more in a log or a header (quotes, braces, too long) is replaced by the
    /// server's own. Each answered request has one line with its route, status and time, and
    /// the token is in none.
    @Test func theServerLogsEachRequestAsJSONByItsID() async throws {
        let folder = NSTemporaryDirectory() + "log-format-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try (Self.token + "\n").write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let server = try RunningProcess(
            HostAppTests.executable, [
                "--log-format", "json", "--log-level", "info", "serve", Fixtures.path("text.pdf"), "--port", "0", "--token-file",
                folder + "/token", "--reader-state", ":memory:",
            ])
        defer { server.killAtOnce() }
        await server.waitForOutput { $0.contains("\n") }
        let port = try #require(server.output.firstMatch(of: /127\.0\.0\.1:(\d+)\//).map { Int($0.1)! }, "\(server.output)")

        /// The status and X-Request-Id of a GET of `path`.
        func get(_ path: String, id: String?, token: Bool = true) async throws -> (status: Int, id: String) {
            let headers = (token ? ["-H", "Authorization: Bearer \(Self.token)"] : []) + (id.map { ["-H", "X-Request-Id: \($0)"] } ?? [])
            let head = try await Tool.run("curl", ["-s", "-o", "/dev/null", "-D", "-"] + headers + ["http://127.0.0.1:\(port)\(path)"]).text
            let status = try #require(head.firstMatch(of: /^HTTP\/1\.1 (\d+)/).map { Int($0.1)! }, "\(head)")
            let answered = try #require(head.firstMatch(of: /(?i)x-request-id: ([^\r\n]*)\r\n/).map { String($0.1) }, "\(head)")
            return (status, answered)
        }
        let balanced = try await get("/api/health", id: "haproxy-7f3a.01:2_b")
        #expect(balanced == (200, "haproxy-7f3a.01:2_b"))
        let page = try await get("/api/documents/text.pdf/pages/0/image?dpi=20", id: nil)
        #expect(page.status == 200 && page.id.wholeMatch(of: /[0-9a-f]{17,32}/) != nil, "\(page)")
        let hostile = #"{"level":"critical","message":"forged"}"#
        let quoted = try await get("/api/documents", id: hostile)
        #expect(quoted.status == 200 && quoted.id != hostile && quoted.id.wholeMatch(of: /[0-9a-f]{17,32}/) != nil, "\(quoted)")
        let long = try await get("/api/documents", id: String(repeating: "a", count: 129))
        #expect(long.status == 200 && long.id.count <= 32)
        let refused = try await get("/api/documents?token=\(Self.token)", id: "no-token-1", token: false)
        #expect(refused == (401, "no-token-1"))
        let unrouted = try await get("/api/nothing-here", id: "unrouted-1")
        #expect(unrouted.status == 404)

        #expect(await server.stop() == 0)
        let lines = Self.objects(server.errorOutput)
        for (answer, route) in [
            (balanced, "/api/health"), (page, "/api/documents/{id}/pages/{page}/image"), (quoted, "/api/documents"), (long, "/api/documents"),
            (refused, "/api/documents"),
        ] {
            let logged = lines.filter { $0["hb.request.id"] as? String == answer.id }
            #expect(logged.count == 1, "\(answer): \(logged)")
            #expect(logged.first?["http.status"] as? Int == answer.status)
            #expect(logged.first?["http.route"] as? String == route)
            #expect(logged.first?["duration.ms"] is Double || logged.first?["duration.ms"] is Int)
            #expect(logged.first?["label"] as? String == "hostapp.serve" && logged.first?["level"] as? String == "info")
        }
        #expect(lines.contains { $0["http.route"] as? String == "unrouted" && $0["http.status"] as? Int == 404 })
        #expect(!lines.contains { $0["level"] as? String == "critical" })
        #expect(!server.errorOutput.contains(Self.token))
        #expect(!server.errorOutput.contains("forged"))
    }

    /// What the engine says of a file (an annotation that names a missing object) is logged as
    /// JSON, with the engine's name, in process and from an engine process (`--isolate`).
    @Test(arguments: [false, true]) func engineMessagesAreJSON(isolated: Bool) async throws {
        let result = try await Tool.run(
            HostAppTests.executable,
            ["--log-format", "json", "--log-level", "warning", "--renderer", "mupdf"] + (isolated ? ["--isolate"] : []) + ["info", Fixtures.path("annotation-objects.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.objects(result.stderr)
        #expect(lines.contains { ($0["message"] as? String)?.contains("cannot load object") == true }, "\(lines)")
        #expect(lines.allSatisfy { $0["engine"] as? String == "mupdf" && $0["label"] as? String == "hostapp" }, "\(lines)")
    }
}
