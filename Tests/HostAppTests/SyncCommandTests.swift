import Foundation
import RendererProvider
import Testing
import TestSupport

/// `hostapp sync` against `hostapp serve`, as a user runs them: tokens from `hostapp token`,
/// changes pushed from a JSON file, pulled by another reader, watched as JSON lines, and an
/// unreachable server that leaves the change queued.
@Suite struct SyncCommandTests {
    /// A scratch folder with docs/annotations.pdf, a key pair and a token file per user.
    final class Setup: Sendable {
        let folder = NSTemporaryDirectory() + "sync-command-\(UUID().uuidString)"
        var docs: String { folder + "/docs" }

        init(users: [String: [String]]) async throws {
            try FileManager.default.createDirectory(atPath: folder + "/docs", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Fixtures.path("annotations.pdf"), toPath: docs + "/annotations.pdf")
            let keys = try await Tool.run(
                HostAppTests.executable, ["token", "keygen", "--private-key-out", folder + "/private.pem", "--public-key-out", folder + "/public.pem"])
            #expect(keys.status == 0, "\(keys.stderr)")
            for (user, permissions) in users {
                let issued = try await Tool.run(
                    HostAppTests.executable,
                    ["token", "issue", "--private-key", folder + "/private.pem", "--document", "docs/annotations.pdf", "--layer", "review", "--user", user,
                     "--expires-in", "86400"]  // a day: a full run can hold a test many minutes before it runs
                        + permissions.flatMap { ["--permission", $0] })
                #expect(issued.status == 0, "\(issued.stderr)")
                try issued.text.write(toFile: "\(folder)/\(user).token", atomically: true, encoding: .utf8)
            }
            try "sync-command-server-token-0123456789\n".write(toFile: folder + "/server.token", atomically: true, encoding: .utf8)
        }

        /// `hostapp sync SUBCOMMAND` as `user` against `port`.
        func sync(_ subcommand: String, _ user: String, port: Int, _ more: [String] = []) async throws -> Tool.Result {
            try await Tool.run(HostAppTests.executable, ["sync", subcommand] + connection(user, port: port) + more)
        }

        func connection(_ user: String, port: Int) -> [String] {
            ["--server", "http://127.0.0.1:\(port)", "--token-file", "\(folder)/\(user).token", "--store", "\(folder)/\(user)-store", "--cycle-delay", "0.1"]
        }

        deinit {
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// `hostapp serve` over the setup's docs with collaboration (in `database`, or a SQLite
    /// file of the setup's) and `more` options, once it listens, and its port.
    static func serve(_ setup: Setup, database: String? = nil, _ more: [String] = []) async throws -> (RunningProcess, Int) {
        let server = try RunningProcess(
            HostAppTests.executable,
            [
                "serve", setup.docs, "--port", "0", "--token-file", setup.folder + "/server.token", "--reader-state", ":memory:",
                "--collab-key", setup.folder + "/public.pem", "--database", database ?? setup.folder + "/layers.sqlite",
            ] + more)
        await server.waitForOutput { $0.contains("\n") }
        guard let port = server.output.firstMatch(of: /127\.0\.0\.1:(\d+)\//).map({ Int($0.1)! }) else {
            await server.stop()
            throw RendererError(.ioFailure, "hostapp serve printed no address: \(server.output) \(server.errorOutput.suffix(2000))")
        }
        return (server, port)
    }

    /// `hostapp sync watch` as `user` against `port`, once it says its WebSocket is connected
    /// (a change made from then on reaches it without waiting for a cycle).
    static func watch(_ setup: Setup, _ user: String, port: Int, _ more: [String] = []) async throws -> RunningProcess {
        let watch = try RunningProcess(HostAppTests.executable, ["sync", "watch"] + setup.connection(user, port: port) + more)
        await watch.waitForOutput { $0.contains(#""type":"listening""#) }
        return watch
    }

    /// The JSON objects of the lines of `output`.
    static func lines(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func pushPullAndWatchAsJSONLines() async throws {
        let setup = try await Setup(users: ["alice": ["read-document", "write"], "bob": ["read-document", "write", "download"]])
        let (server, port) = try await Self.serve(setup)  // killed when it goes, if a failure ends the test early

        // Alice adds a note from a JSON file; the author she claims is not taken.
        let note = #"{"id": "cli-note", "kind": "square", "pageIndex": 0, "rect": {"origin": {"x": 90, "y": 90}, "size": {"width": 60, "height": 30}}, "contents": "from the command line", "author": "bob"}"#
        try note.write(toFile: setup.folder + "/note.json", atomically: true, encoding: .utf8)
        let pushed = try await setup.sync("push", "alice", port: port, ["--add", setup.folder + "/note.json"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let pushLines = Self.lines(pushed.text)
        #expect(pushLines.contains { $0["type"] as? String == "accepted" })
        #expect(pushLines.last?["type"] as? String == "summary" && pushLines.last?["pending"] as? Int == 0)

        // Bob pulls it, with Alice as its author.
        let pulled = try await setup.sync("pull", "bob", port: port, ["--output", setup.folder + "/bob.json"])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let bobs = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: setup.folder + "/bob.json"))) as? [[String: Any]]
        let received = try #require(bobs?.first { $0["id"] as? String == "cli-note" })
        #expect(received["author"] as? String == "alice" && received["contents"] as? String == "from the command line")

        // Bob downloads the document, byte for byte.
        let downloaded = try await setup.sync("download", "bob", port: port, ["--output", setup.folder + "/copy.pdf"])
        #expect(downloaded.status == 0, "\(downloaded.stderr)")
        #expect(FileManager.default.contents(atPath: setup.folder + "/copy.pdf") == FileManager.default.contents(atPath: setup.docs + "/annotations.pdf"))
        // Alice's token does not grant download.
        #expect(try await setup.sync("download", "alice", port: port, ["--output", setup.folder + "/no.pdf"]).status == 77)

        // Bob watches; Alice changes her note; Bob's watch prints it as a remote change.
        let watch = try await Self.watch(setup, "bob", port: port)
        let changed = note.replacingOccurrences(of: "from the command line", with: "changed while bob watches")
        try changed.write(toFile: setup.folder + "/changed.json", atomically: true, encoding: .utf8)
        #expect(try await setup.sync("push", "alice", port: port, ["--modify", setup.folder + "/changed.json"]).status == 0)
        await watch.waitForOutput { $0.contains("changed while bob watches") }
        #expect(await watch.stop() == 0)  // SIGTERM ends the watch cleanly
        let remote = Self.lines(watch.output).first { $0["type"] as? String == "remote" && "\($0["modified"] ?? "")".contains("changed while bob watches") }
        #expect(remote != nil, "\(watch.output) \(watch.errorOutput.suffix(2000))")
        #expect(await server.stop() == 0)
    }

    /// Two `hostapp serve` processes on one PostgreSQL: Bob watches through the second,
    /// with cycles an hour apart, so only the second server's WebSocket can bring him the
    /// change Alice pushes through the first (PostgreSQL's NOTIFY carries it across).
    @Test func twoServerProcessesOnOnePostgreSQLCarryAChangeAcross() async throws {
        let cluster = try await PostgresCluster.start()
        let setup = try await Setup(users: ["alice": ["read-document", "write"], "bob": ["read-document", "write"]])
        let (first, firstPort) = try await Self.serve(setup, database: cluster.url)
        let (second, secondPort) = try await Self.serve(setup, database: cluster.url)

        let watch = try await Self.watch(setup, "bob", port: secondPort, ["--cycle-delay", "3600"])

        let note = #"{"id": "across", "kind": "square", "pageIndex": 0, "rect": {"origin": {"x": 90, "y": 90}, "size": {"width": 60, "height": 30}}, "contents": "pushed to the first server"}"#
        try note.write(toFile: setup.folder + "/note.json", atomically: true, encoding: .utf8)
        let pushed = try await setup.sync("push", "alice", port: firstPort, ["--add", setup.folder + "/note.json"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        await watch.waitForOutput { $0.contains("pushed to the first server") }
        await watch.stop()
        let remote = Self.lines(watch.output).first { $0["type"] as? String == "remote" && "\($0["added"] ?? "")".contains("pushed to the first server") }
        #expect(remote != nil, "\(watch.output) \(watch.errorOutput.suffix(2000))")
        // Both end on SIGTERM, before the cluster does.
        #expect(await first.stop() == 0)
        #expect(await second.stop() == 0)
        cluster.stop()
    }

    @Test func anUnreachableServerLeavesTheChangeQueued() async throws {
        let setup = try await Setup(users: ["alice": ["read-document", "write"]])
        let note = #"{"id": "queued", "kind": "text", "pageIndex": 0, "rect": {"origin": {"x": 10, "y": 10}, "size": {"width": 20, "height": 20}}, "contents": "offline"}"#
        try note.write(toFile: setup.folder + "/note.json", atomically: true, encoding: .utf8)
        let port = 1  // nothing listens on loopback port 1: connections are refused
        let offline = try await setup.sync("push", "alice", port: port, ["--add", setup.folder + "/note.json"])
        #expect(offline.status == 69)
        #expect(offline.stderr.contains("1 changes stay queued"), "\(offline.stderr)")
        #expect(!offline.stderr.contains(try String(contentsOfFile: setup.folder + "/alice.token", encoding: .utf8)))

        // Forgetting the layer removes the queue with the store.
        #expect(try await Tool.run(HostAppTests.executable, ["sync", "forget", "--document", "docs/annotations.pdf", "--layer", "review", "--store", setup.folder + "/alice-store"]).status == 0)
        let stores = try FileManager.default.contentsOfDirectory(atPath: setup.folder + "/alice-store")
        #expect(stores.isEmpty)
    }

    /// Bob and Alice share one store folder (one account on one machine): the change Bob
    /// queued while the server was down stays Bob's. Alice's push never sends it, and Bob's
    /// own push later does, under his name.
    @Test func readersSharingAStoreFolderNeverSendEachOthersQueue() async throws {
        let setup = try await Setup(users: ["alice": ["read-document", "write"], "bob": ["read-document", "write"]])
        let shared = setup.folder + "/shared-store"
        func push(_ user: String, port: Int, _ note: String, id: String? = nil) async throws -> Tool.Result {
            let file = setup.folder + "/\(user)-note.json"
            try #"{"id": "\#(id ?? user + "-note")", "kind": "square", "pageIndex": 0, "rect": {"origin": {"x": 90, "y": 90}, "size": {"width": 60, "height": 30}}, "contents": "\#(note)"}"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            return try await Tool.run(HostAppTests.executable, [
                "sync", "push", "--server", "http://127.0.0.1:\(port)", "--token-file", "\(setup.folder)/\(user).token", "--store", shared,
                "--cycle-delay", "0.1", "--add", file,
            ])
        }
        #expect(try await push("bob", port: 1, "queued by bob").status == 69)  // nothing listens on port 1: queued
        let (server, port) = try await Self.serve(setup)
        let alices = try await push("alice", port: port, "pushed by alice")
        #expect(alices.status == 0, "\(alices.stderr)")
        let pulled = try await setup.sync("pull", "alice", port: port, ["--output", setup.folder + "/layer.json"])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let layer = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: setup.folder + "/layer.json"))) as? [[String: Any]] ?? []
        #expect(layer.contains { $0["id"] as? String == "alice-note" } && !layer.contains { $0["id"] as? String == "bob-note" }, "\(layer)")
        // Bob's next push sends his own queue, as his.
        #expect(try await push("bob", port: port, "pushed by bob", id: "bob-later").status == 0)
        let again = try await setup.sync("pull", "alice", port: port, ["--output", setup.folder + "/layer.json"])
        #expect(again.status == 0)
        let final = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: setup.folder + "/layer.json"))) as? [[String: Any]] ?? []
        #expect(final.first { $0["id"] as? String == "bob-note" }?["author"] as? String == "bob")
        #expect(final.first { $0["id"] as? String == "bob-later" }?["author"] as? String == "bob")
        #expect(await server.stop() == 0)
    }

    /// `sync watch` and `sync push` of one reader on one store at the same time: the push
    /// waits its turn at the store instead of failing "database is locked".
    @Test func aWatchAndAPushShareOneStore() async throws {
        let setup = try await Setup(users: ["alice": ["read-document", "write"]])
        let (server, port) = try await Self.serve(setup)
        let watch = try await Self.watch(setup, "alice", port: port)
        for index in 0..<5 {
            let file = setup.folder + "/note-\(index).json"
            try #"{"id": "beside-watch-\#(index)", "kind": "square", "pageIndex": 0, "rect": {"origin": {"x": 90, "y": 90}, "size": {"width": 60, "height": 30}}, "contents": "n"}"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            let pushed = try await setup.sync("push", "alice", port: port, ["--add", file])
            #expect(pushed.status == 0, "\(pushed.stderr); the server said: \(server.errorOutput.suffix(2000))")
        }
        #expect(await watch.stop() == 0, "\(watch.errorOutput.suffix(2000))")
        #expect(await server.stop() == 0, "\(server.errorOutput.suffix(2000))")
    }

    /// A token revoked by its id while the server runs: refused once the server has read its
    /// revocation list again on SIGHUP.
    @Test func aTokenRevokedOnSIGHUPIsRefused() async throws {
        let setup = try await Setup(users: [:])
        let revoked = setup.folder + "/revoked.txt"
        try "# revoked collaboration tokens\n".write(toFile: revoked, atomically: true, encoding: .utf8)
        let issued = try await Tool.run(HostAppTests.executable, [
            "token", "issue", "--private-key", setup.folder + "/private.pem", "--document", "docs/annotations.pdf", "--layer", "review",
            "--user", "alice", "--expires-in", "86400", "--id", "alice-token-1",
        ])
        try #require(issued.status == 0, "\(issued.stderr)")
        try issued.text.write(toFile: setup.folder + "/alice.token", atomically: true, encoding: .utf8)
        let (server, port) = try await Self.serve(setup, ["--collab-revocations", revoked])
        let before = try await setup.sync("pull", "alice", port: port, ["--output", setup.folder + "/layer.json"])
        #expect(before.status == 0, "\(before.stderr)")

        try "alice-token-1\n".write(toFile: revoked, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        var refused: Tool.Result?
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let attempt = try await setup.sync("pull", "alice", port: port, ["--output", setup.folder + "/layer.json"])
            if attempt.status != 0 { refused = attempt; break }
            try await Task.sleep(for: .milliseconds(100))
        }
        // 77: the server refused the token (it was taken before the list was read again).
        #expect(refused?.status == 77, "\(refused?.stderr ?? "never refused") \(server.errorOutput.suffix(1000))")
        #expect(await server.stop() == 0)
    }
}
