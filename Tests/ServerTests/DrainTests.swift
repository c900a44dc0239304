import Foundation
import HTTPTypes
import RendererCollaboration
import RendererServer
import Testing
import TestSupport
import WSClient

/// What a load balancer and an orchestrator ask of a server: whether it is alive
/// (`/api/health`) and takes requests (`/api/ready`), and that a server told to stop drains:
/// its layer WebSockets' clients are told to connect again before it goes.
@Suite struct DrainTests {
    /// Ready with its engines and a database that answers; not ready, saying why and nothing
    /// of the database's address, once the database has stopped, while still alive; the
    /// token is asked for as on every route.
    @Test func readyOnlyWhileTheDatabaseAnswers() async throws {
        let cluster = try await PostgresCluster.start()
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), CollaborationServerTests.Keys())
        let collaboration = try await keys.configuration(database: cluster.url)
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            // Ready once the server's first connection to the database is made (on a busy
            // machine that can take longer than a check's two seconds: a probe asks again).
            let ready = try await Self.firstAnswer(of: client) { $0.status == .ok }
            #expect(ready.status == .ok && (ready.json as? [String: Any])?["status"] as? String == "ready", "\(ready.status) \(ready.body)")
            let anonymous = try await client.execute(uri: "/api/ready", method: .get)
            #expect(anonymous.status == .unauthorized && anonymous.errorCode != nil)

            cluster.stop()
            let down = try await client.get("/api/ready")
            #expect(down.status == .serviceUnavailable && down.errorCode == "not-ready", "\(down.status) \(down.body)")
            #expect(down.errorMessage?.contains("database does not answer") == true, "\(down.body)")
            #expect(!down.body.contains("127.0.0.1") && !down.body.contains("postgres://") && !down.body.contains("\(cluster.port)"), "\(down.body)")
            #expect(try await client.get("/api/health").status == .ok)
        }
    }

    /// `GET /api/ready`'s first answer that satisfies `wanted`, asked again every tenth of a
    /// second for at most two minutes (then its last answer).
    static func firstAnswer(of client: ServerClient, _ wanted: (ServerResponse) -> Bool) async throws -> ServerResponse {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let answer = try await client.get("/api/ready")
            if wanted(answer) || ContinuousClock.now > deadline { return answer }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// A server without collaboration is ready with its engines alone.
    @Test func readyWithoutADatabase() async throws {
        let harness = try ServerHarness()
        let status = try await harness.run { client in try await client.get("/api/ready").status }
        #expect(status == .ok)
    }

    /// A graceful shutdown (SIGTERM for `hostapp serve`) closes every layer WebSocket with
    /// 1012, Service Restart, and says to connect again, before the server stops; a change
    /// acknowledged before it is kept.
    @Test func aDrainingServerTellsItsSocketsToConnectAgain() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), CollaborationServerTests.Keys())
        let database = harness.folder + "/layers.sqlite"
        let collaboration = try await keys.configuration(database: database)
        let (alice, bob) = (try await keys.token("alice"), try await keys.token("bob"))
        let server = try await harness.start(configure: { $0.collaboration = collaboration })
        let client = ServerClient(port: server.port)
        let listeners = [alice, bob].map { CollaborationServerTests.Listener(port: server.port, token: $0) }
        defer { listeners.forEach { $0.close() } }
        for listener in listeners {
            #expect(try await listener.wait { $0["type"] as? String == "hello" } != nil)
        }
        let (_, pushed) = try await CollaborationServerTests.push(
            client, token: alice, [LayerChange(operationID: "before-drain", action: .add, annotation: CollaborationServerTests.square("kept", contents: "kept"))])
        #expect(pushed?.results.first?.status == .applied)

        try await server.stop()
        for listener in listeners {
            let closed = await #expect(throws: CollaborationServerTests.Listener.SocketClosed.self) {
                _ = try await listener.wait { _ in false }
            }
            #expect(closed?.frame?.closeCode == .unknown(collaborationReconnectCloseCode), "\(String(describing: closed))")
            #expect(closed?.frame?.reason == "the server is restarting: connect again", "\(String(describing: closed))")
        }

        // The same database, served again: the change is there.
        try await harness.run(configure: { $0.collaboration = collaboration }) { again in
            let snapshot = try await CollaborationServerTests.snapshot(again, token: bob)
            #expect(snapshot.annotations.contains { $0.annotation.id == "kept" })
        }
    }
}
