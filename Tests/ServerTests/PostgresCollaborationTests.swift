import Foundation
import RendererCollaboration
import RendererProvider
import RendererServer
import Testing
import TestSupport

/// Collaboration layers in PostgreSQL (a throwaway cluster of Debian's server per test):
/// several servers share one database, a change made through one reaches the WebSockets of
/// another, a restart loses no acknowledged change, writers through different servers never
/// share a revision, and names with quotes, slashes and SQL are stored as they are (the
/// last also on SQLite), and comment threads follow the layer's rules in both stores.
@Suite(.timeLimit(.minutes(2))) struct PostgresCollaborationTests {
    typealias Keys = CollaborationServerTests.Keys

    static func note(_ id: String, _ contents: String) -> Annotation {
        Annotation(id: id, kind: .square, pageIndex: 0, rect: PageRect(x: 100, y: 100, width: 80, height: 40), contents: contents)
    }

    @Test func aRestartLosesNoAcknowledgedChangeAndARetryIsAppliedOnce() async throws {
        let cluster = try await PostgresCluster.start()
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: cluster.url)
        let alice = try await keys.token("alice")
        let change = LayerChange(operationID: "op-kept", action: .add, annotation: Self.note("kept", "acknowledged"))

        let applied = try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let (response, pushed) = try await CollaborationServerTests.push(client, token: alice, [change])
            #expect(response.status == .ok)
            return pushed?.results.first
        }
        let first = try #require(applied)
        #expect(first.status == .applied)

        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let (revision, annotations) = try await CollaborationServerTests.snapshot(client, token: alice)
            #expect(revision == first.revision)
            #expect(annotations.first { $0.annotation.id == "kept" }?.annotation.contents == "acknowledged")
            #expect(annotations.first { $0.annotation.id == "kept" }?.annotation.author == "alice")
            // The same operation sent again is answered as the first time, and not applied again.
            let (_, retried) = try await CollaborationServerTests.push(client, token: alice, [change])
            #expect(retried?.results.first == first)
            #expect(try await CollaborationServerTests.snapshot(client, token: alice).revision == revision)
        }
    }

    @Test func twoServersOnOneDatabaseShareChangesAndEvents() async throws {
        let cluster = try await PostgresCluster.start()
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: cluster.url)
        let (alice, bob) = (try await keys.token("alice"), try await keys.token("bob"))
        let elsewhere = try await keys.token("carol", document: "docs/text.pdf")
        try await harness.run(configure: { $0.collaboration = collaboration }) { one in
            try await harness.run(configure: { $0.collaboration = collaboration }) { two in
                let listener = CollaborationServerTests.Listener(port: two.port, token: bob)
                let other = CollaborationServerTests.Listener(port: two.port, token: elsewhere, layer: CollaborationServerTests.layerPath("docs/text.pdf"))
                defer { [listener, other].forEach { $0.close() } }
                // One wait a line: Swift 6.3.1 miscompiled a loop over the two in this closure
                // (the next wait below ran this loop's match instead of its own).
                #expect(try await listener.wait { $0["type"] as? String == "hello" } != nil)
                #expect(try await other.wait { $0["type"] as? String == "hello" } != nil)

                // A change pushed to one server reaches a WebSocket of the other.
                let (_, pushed) = try await CollaborationServerTests.push(
                    one, token: alice, [LayerChange(operationID: "a-1", action: .add, annotation: Self.note("from-one", "pushed to one"))])
                #expect(pushed?.results.first?.status == .applied)
                let event = try await listener.wait { CollaborationServerTests.annotationID($0) == "from-one" }
                #expect(event?["type"] as? String == "change" && event?["user"] as? String == "alice" && event?["action"] as? String == "add")

                // Writers through both servers at once: every change gets a revision of its own.
                async let throughOne = CollaborationServerTests.push(
                    one, token: alice, (0..<10).map { LayerChange(operationID: "one-\($0)", action: .add, annotation: Self.note("one-\($0)", "1")) })
                async let throughTwo = CollaborationServerTests.push(
                    two, token: bob, (0..<10).map { LayerChange(operationID: "two-\($0)", action: .add, annotation: Self.note("two-\($0)", "2")) })
                let results = try await [throughOne, throughTwo].flatMap { $0.1?.results ?? [] }
                let revisions = results.compactMap(\.revision)
                #expect(results.count == 20 && Set(revisions).count == 20)
                #expect(Set(revisions) == Set(2...21))
                let fromOne = try await CollaborationServerTests.snapshot(one, token: alice)
                let fromTwo = try await CollaborationServerTests.snapshot(two, token: bob)
                #expect(fromOne.revision == 21 && fromOne.revision == fromTwo.revision)
                #expect(fromOne.annotations == fromTwo.annotations)
                _ = try await listener.wait { ($0["revision"] as? Int) == 21 }

                // The other document's client heard none of it.
                #expect(await other.types() == ["hello"])
            }
        }
    }

    /// The database drops a server's LISTEN connection (as a restart of PostgreSQL or a
    /// network cut would): the server listens again, and says `hello` again on its sockets
    /// with the layer's revision, so that their clients fetch what they may have missed.
    @Test func aServerThatStopsHearingTheOthersTellsItsSocketsToCatchUp() async throws {
        let cluster = try await PostgresCluster.start()
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: cluster.url)
        let (alice, bob) = (try await keys.token("alice"), try await keys.token("bob"))
        try await harness.run(configure: { $0.collaboration = collaboration }) { one in
            try await harness.run(configure: { $0.collaboration = collaboration }) { two in
                let listener = CollaborationServerTests.Listener(port: two.port, token: bob)
                defer { listener.close() }
                #expect(try await listener.wait { $0["type"] as? String == "hello" } != nil)

                let killed = try await cluster.query("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")
                #expect(Int(killed.trimmingCharacters(in: .whitespacesAndNewlines)) == 2)  // one per server
                let (_, pushed) = try await CollaborationServerTests.push(
                    one, token: alice, [LayerChange(operationID: "meanwhile", action: .add, annotation: Self.note("meanwhile", "pushed while two was deaf"))])
                let revision = try #require(pushed?.results.first?.revision)
                // The second hello comes in any case. The change reaches the client either as
                // an event (two listened again before the push: then the event may come after
                // the hello) or in the second hello's revision (the push came first); which one
                // depends on the machine's pace, so the wait is for either, up to a deadline.
                let deadline = ContinuousClock.now + .seconds(60)
                func hellos() -> [[String: Any]] { listener.inbox.messages.filter { $0["type"] as? String == "hello" } }
                func caughtUp() -> Bool {
                    listener.inbox.messages.contains { CollaborationServerTests.annotationID($0) == "meanwhile" }
                        || (hellos().count >= 2 && (hellos().last?["revision"] as? Int ?? 0) >= revision)
                }
                while !(hellos().count >= 2 && caughtUp()), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(hellos().count == 2, "no second hello")
                #expect(caughtUp(), "the change made while two was deaf reached its client neither as an event nor in the hello")
            }
        }
    }

    @Test(arguments: ["sqlite", "postgres"])
    func namesWithQuotesSlashesAndSQLAreStoredVerbatim(store: String) async throws {
        let cluster = store == "postgres" ? try await PostgresCluster.start() : nil
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let strange = #"it's "quoted"; DROP TABLE renderer_layer; --.pdf"#
        try FileManager.default.copyItem(atPath: harness.docs + "/annotations.pdf", toPath: harness.docs + "/" + strange)
        let collaboration = try await keys.configuration(database: cluster?.url ?? harness.folder + "/layers.sqlite")
        let names = [
            ("docs/" + strange, "review"), ("docs/annotations.pdf", #"a/b\c 'd' "e"; DELETE FROM annotation; --"#),
            ("docs/annotations.pdf", "review"), ("docs/annotations.pdf", "Review"),
        ]
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            for (index, (document, layer)) in names.enumerated() {
                let token = try await keys.token("alice", document: document, layer: layer)
                let path = CollaborationServerTests.layerPath(document, layer)
                let (response, pushed) = try await CollaborationServerTests.push(
                    client, token: token, [LayerChange(operationID: "op", action: .add, annotation: Self.note("only-\(index)", "\(document)|\(layer)"))],
                    layer: path)
                #expect(response.status == .ok && pushed?.results.first?.status == .applied, "\(document) \(layer)")
            }
            // Each layer holds its own change and no other's: the names were kept apart, byte for byte.
            for (index, (document, layer)) in names.enumerated() {
                let token = try await keys.token("alice", document: document, layer: layer)
                let (_, annotations) = try await CollaborationServerTests.snapshot(client, token: token, layer: CollaborationServerTests.layerPath(document, layer))
                let added = annotations.filter { $0.annotation.id.hasPrefix("only-") }
                #expect(added.map(\.annotation.id) == ["only-\(index)"], "\(document) \(layer)")
                #expect(added.first?.annotation.contents == "\(document)|\(layer)")
            }
        }
    }

    /// A reply in a layer: any reader who may annotate replies to anyone's annotation, the
    /// reply's author comes from the token, a reply must answer an annotation of its page that
    /// the layer holds, only its author (or a moderator) edits it, and deleting the root
    /// deletes the thread, which takes the right to delete every reply in it.
    @Test(arguments: ["sqlite", "postgres"])
    func aThreadLivesAndDiesWithItsRoot(store: String) async throws {
        let cluster = store == "postgres" ? try await PostgresCluster.start() : nil
        let (harness, keys) = (try ServerHarness(extra: ["mixed-sizes.pdf"]), Keys())
        let (document, layer) = ("docs/mixed-sizes.pdf", CollaborationServerTests.layerPath("docs/mixed-sizes.pdf"))
        let collaboration = try await keys.configuration(database: cluster?.url ?? harness.folder + "/layers.sqlite")
        let (alice, bob) = (try await keys.token("alice", document: document), try await keys.token("bob", document: document))
        let moderator = try await keys.token("mod", document: document, permissions: ["read-document", "annotations:edit:all", "annotations:delete:all"])
        @Sendable func reply(_ id: String, to root: String, page: Int = 0, author: String? = nil) -> Annotation {
            Annotation(
                id: id, kind: .text, pageIndex: page, rect: PageRect(x: 10, y: 10, width: 20, height: 20), contents: "re: \(root)",
                author: author, inReplyTo: root, reviewState: .accepted)
        }
        try await harness.run(configure: { $0.collaboration = collaboration }) { serverClient in
            func results(_ token: String, _ changes: [LayerChange]) async throws -> [ChangeResult] {
                try #require(try await CollaborationServerTests.push(serverClient, token: token, changes, layer: layer).1).results
            }
            let start = try await CollaborationServerTests.snapshot(serverClient, token: alice, layer: layer).revision
            #expect(try await results(alice, [LayerChange(operationID: "root", action: .add, annotation: Self.note("root", "a question"))])
                .map(\.status) == [.applied])

            // Bob replies to Alice's note, claiming to be her, and Alice to his reply; replies
            // that answer nothing in the layer, another page's note or themselves are refused.
            let replies = try await results(bob, [
                LayerChange(operationID: "r1", action: .add, annotation: reply("r1", to: "root", author: "alice")),
                LayerChange(operationID: "r-none", action: .add, annotation: reply("r-none", to: "nowhere")),
                LayerChange(operationID: "r-page", action: .add, annotation: reply("r-page", to: "root", page: 1)),
                LayerChange(operationID: "r-self", action: .add, annotation: reply("r-self", to: "r-self")),
            ])
            #expect(replies.map(\.reason) == [nil, .invalid, .invalid, .invalid])
            #expect(replies.dropFirst().allSatisfy { $0.message?.contains("answers another of its page") == true })
            #expect(replies.first?.annotation?.annotation.author == "bob" && replies.first?.annotation?.annotation.inReplyTo == "root")
            #expect(try await results(alice, [LayerChange(operationID: "r2", action: .add, annotation: reply("r2", to: "r1"))]).map(\.status)
                == [.applied])

            // Replying gave Bob no right on Alice's note or her reply; his own reply is his to change.
            let snapshot = try await CollaborationServerTests.snapshot(serverClient, token: bob, layer: layer).annotations
            let stored = Dictionary(uniqueKeysWithValues: snapshot.map { ($0.annotation.id, $0) })
            var edited = try #require(stored["r1"]).annotation
            edited.reviewState = .rejected
            let bobs = try await results(bob, [
                LayerChange(operationID: "b-root", action: .modify, annotation: try #require(stored["root"]).annotation, baseRevision: stored["root"]!.revision),
                LayerChange(operationID: "b-r2", action: .delete, annotationID: "r2"),
                LayerChange(operationID: "b-r1", action: .modify, annotation: edited, baseRevision: stored["r1"]!.revision),
            ])
            #expect(bobs.map(\.reason) == [.notPermitted, .notPermitted, nil])
            #expect(bobs.last?.annotation?.annotation.reviewState == .rejected)

            // Alice may not delete her note while it holds Bob's reply; a moderator may, and the
            // thread goes with it, replies to replies too, in one revision.
            let refused = try await results(alice, [LayerChange(operationID: "a-del", action: .delete, annotationID: "root")])
            #expect(refused.map(\.reason) == [.notPermitted])
            let before = try await CollaborationServerTests.snapshot(serverClient, token: alice, layer: layer).revision
            let deleted = try await results(moderator, [LayerChange(operationID: "m-del", action: .delete, annotationID: "root")])
            #expect(deleted.map(\.status) == [.applied] && deleted.first?.revision == before + 1)
            let after = try await CollaborationServerTests.snapshot(serverClient, token: alice, layer: layer)
            #expect(after.revision == before + 1)
            #expect(!after.annotations.contains { ["root", "r1", "r2"].contains($0.annotation.id) })
            let changes = try await CollaborationServerTests.changes(serverClient, token: bob, since: before, layer: layer)
            #expect(changes.deleted.sorted() == ["r1", "r2", "root"] && changes.added.isEmpty && changes.updated.isEmpty)
            #expect(try await CollaborationServerTests.changes(serverClient, token: bob, since: start, layer: layer).deleted.isEmpty)

            // Nothing of the thread can be changed or answered any more.
            let late = try await results(bob, [
                LayerChange(operationID: "late-edit", action: .modify, annotation: edited, baseRevision: after.revision),
                LayerChange(operationID: "late-reply", action: .add, annotation: reply("r3", to: "r1")),
            ])
            #expect(late.map(\.reason) == [.deleted, .invalid])
        }
    }
}
