import Foundation
import RendererCollaboration
import RendererProvider
import RendererServer
import RendererSync
import Testing
import TestSupport

/// The sync client against the real server on loopback: readers editing at once converge,
/// conflicts come back as events with the server's value, edits made while the server is
/// down arrive once and in order, a session in collaboration mode receives the other
/// readers' changes, tokens are renewed without losing queued changes, and read-only tokens
/// make read-only readers.
@Suite(.timeLimit(.minutes(2))) struct SyncClientTests {
    typealias Keys = CollaborationServerTests.Keys
    static let editor = ["read-document", "write", "download"]
    static let editsAll = ["read-document", "write", "annotations:edit:all"]

    /// A client of `server` for `token`, storing under `folder`/`name`, cycling fast.
    static func client(_ server: URL, _ token: String, _ folder: String, _ name: String, renew: SyncClient.TokenRenewal? = nil) throws -> SyncClient {
        try SyncClient(
            server: server, token: token, storage: URL(fileURLWithPath: folder + "/" + name),
            configuration: SyncClient.Configuration(cycleDelay: .milliseconds(100), requestTimeout: .seconds(120)), renewToken: renew)
    }

    static func note(_ id: String, _ contents: String, page: Int = 0) -> Annotation {
        Annotation(id: id, kind: .square, pageIndex: page, rect: PageRect(x: 100, y: 100, width: 80, height: 40), contents: contents)
    }

    /// Waits (at most 120 s: a deadline that ends a hang, not a timing) until `condition` holds.
    static func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw RendererError(.cancelled, "gave up waiting: \(what)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Every event `client` has sent so far (it sends none after).
    static func drain(_ client: SyncClient) async -> [SyncEvent] {
        client.finishEvents()
        var events: [SyncEvent] = []
        for await event in client.events { events.append(event) }
        return events
    }

    static func byID(_ annotations: [Annotation]) -> [Annotation] { annotations.sorted { $0.id < $1.id } }

    @Test func twoClientsEditingAtOnceConverge() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let (aliceToken, bobToken) = (try await keys.token("alice", permissions: Self.editsAll), try await keys.token("bob", permissions: Self.editsAll))
        let folder = harness.folder
        try await harness.run(configure: { $0.collaboration = collaboration }) { server in
            let url = server.url
            let (alice, bob) = (try Self.client(url, aliceToken, folder, "alice"), try Self.client(url, bobToken, folder, "bob"))
            let running = [Task { await alice.run() }, Task { await bob.run() }]
            defer { running.forEach { $0.cancel() } }

            // Both add at once, then change and delete each other's.
            for index in 0..<6 {
                try alice.add(Self.note("alice-\(index)", "A\(index)"))
                try bob.add(Self.note("bob-\(index)", "B\(index)"))
            }
            try await Self.eventually("both see all twelve") {
                try alice.annotations().filter { $0.id.hasPrefix("alice-") || $0.id.hasPrefix("bob-") }.count == 12
                    && bob.annotations().filter { $0.id.hasPrefix("alice-") || $0.id.hasPrefix("bob-") }.count == 12
            }
            var changed = try #require(try alice.annotations().first { $0.id == "bob-0" })
            changed.contents = "changed by alice"
            try alice.modify(changed)
            try bob.delete(id: "alice-1")
            try alice.delete(id: "bob-2")

            try await Self.eventually("the two clients converge") {
                try alice.pendingChangeCount() == 0 && bob.pendingChangeCount() == 0 && alice.revision() == bob.revision()
                    && Self.byID(alice.annotations()) == Self.byID(bob.annotations())
            }
            let (revision, stored) = try await CollaborationServerTests.snapshot(server, token: aliceToken)
            #expect(try alice.revision() == revision)
            #expect(Self.byID(try alice.annotations()) == Self.byID(stored.map(\.annotation)))
            let ids = Set(try bob.annotations().map(\.id))
            #expect(!ids.contains("alice-1") && !ids.contains("bob-2") && ids.contains("alice-0") && ids.contains("bob-5"))
            let bobs = try #require(try bob.annotations().first { $0.id == "bob-0" })
            #expect(bobs.contents == "changed by alice" && bobs.author == "bob")
            #expect(try alice.annotations().first { $0.id == "alice-3" }?.author == "alice")
        }
    }

    @Test func aChangeMadeOnAnOldRevisionComesBackAsAConflictWithTheServersValue() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let (aliceToken, bobToken) = (try await keys.token("alice", permissions: Self.editsAll), try await keys.token("bob", permissions: Self.editsAll))
        let folder = harness.folder
        try await harness.run(configure: { $0.collaboration = collaboration }) { server in
            let url = server.url
            let (alice, bob) = (try Self.client(url, aliceToken, folder, "alice"), try Self.client(url, bobToken, folder, "bob"))
            try alice.add(Self.note("shared", "first"))
            try alice.add(Self.note("doomed", "first"))
            try await alice.sync()
            try await bob.sync()

            // Alice changes both first; Bob's changes were made on the older revision.
            var mine = try #require(try alice.annotations().first { $0.id == "shared" })
            mine.contents = "alice's"
            try alice.modify(mine)
            try alice.delete(id: "doomed")
            try await alice.sync()
            var theirs = try #require(try bob.annotations().first { $0.id == "shared" })
            theirs.contents = "bob's"
            try bob.modify(theirs)
            theirs.contents = "bob's second thought"
            try bob.modify(theirs)  // absorbed by the unsent modify
            var late = try #require(try bob.annotations().first { $0.id == "doomed" })
            late.contents = "bob's"
            try bob.modify(late)
            let results = try await bob.push()

            #expect(results.map(\.reason) == [.conflict, .deleted])
            let conflicts = await Self.drain(bob).compactMap { event -> SyncConflict? in
                if case .conflict(let conflict) = event { return conflict }
                return nil
            }
            #expect(conflicts.count == 2)
            #expect(conflicts.first?.change.annotation?.contents == "bob's second thought")
            #expect(conflicts.first?.result.current?.annotation.contents == "alice's")
            // Bob's store now holds the server's value; a change made on it is applied.
            #expect(try bob.annotations().first { $0.id == "shared" }?.contents == "alice's")
            #expect(try bob.annotations().contains { $0.id == "doomed" } == false)
            var rebased = try #require(try bob.annotations().first { $0.id == "shared" })
            rebased.contents = "bob's, rebased"
            try bob.modify(rebased)
            #expect(try await bob.push().map(\.status) == [.applied])
            try await alice.sync()
            #expect(try alice.annotations().first { $0.id == "shared" }?.contents == "bob's, rebased")
        }
    }

    /// A freehand drawing of a few thousand points (its change message is over 100 KB, past
    /// a WebSocket client library's default frame limit of 16 KiB) reaches a client whose
    /// cycles are an hour apart: only its WebSocket can bring it.
    @Test func aLargeChangeArrivesOverTheWebSocket() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let (aliceToken, bobToken) = (try await keys.token("alice", permissions: Self.editor), try await keys.token("bob", permissions: Self.editor))
        let folder = harness.folder
        try await harness.run(configure: { $0.collaboration = collaboration }) { server in
            let bob = try SyncClient(
                server: server.url, token: bobToken, storage: URL(fileURLWithPath: folder + "/bob"),
                configuration: SyncClient.Configuration(cycleDelay: .seconds(3600), requestTimeout: .seconds(120)))
            let running = Task { await bob.run() }
            defer { running.cancel() }
            for await event in bob.events { if case .listening = event { break } }  // its WebSocket connected

            var drawing = Annotation(id: "drawing", kind: .ink, pageIndex: 0, rect: PageRect(x: 50, y: 50, width: 400, height: 400))
            drawing.inkPaths = (0..<40).map { path in (0..<100).map { PagePoint(x: 50 + Double($0) * 4, y: 50 + Double(path) * 10 + Double($0 % 7)) } }
            let (response, _) = try await CollaborationServerTests.push(
                server, token: aliceToken, [LayerChange(operationID: "draw", action: .add, annotation: drawing)])
            #expect(response.status == .ok)
            try await Self.eventually("the drawing reaches bob") { try bob.annotations().contains { $0.id == "drawing" } }
            #expect(try bob.annotations().first { $0.id == "drawing" }?.inkPaths.map(\.count) == Array(repeating: 100, count: 40))
        }
    }

    @Test func editsMadeWhileTheServerIsDownArriveOnceAndInOrder() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let token = try await keys.token("alice", permissions: Self.editor)
        // The client pauses while the server stops (a graceful stop waits for the client's
        // connections, which a client cycling every 100 ms would keep busy), then runs on.
        let (firstURL, online) = try await harness.run(configure: { $0.collaboration = collaboration }) { server in
            let alice = try Self.client(server.url, token, harness.folder, "alice")
            let onlineRun = Task { await alice.run() }
            defer { onlineRun.cancel() }
            try alice.add(Self.note("before", "sent while online"))
            try await Self.eventually("the first change is sent") { try alice.pendingChangeCount() == 0 && alice.revision() > 0 }
            onlineRun.cancel()
            await onlineRun.value
            return (server.url, try alice.revision())
        }
        // The stopped server's address, its port held so that no other test's server can
        // answer there meanwhile.
        let gone = try ReservedPort()
        let alice = try Self.client(gone.replacingPort(of: firstURL), token, harness.folder, "alice")

        // Offline: an add, a modify of the first, another add changed again before it is sent
        // (made before the client runs, so that no cycle takes the add before its change).
        try alice.add(Self.note("offline-1", "one"))
        var before = try #require(try alice.annotations().first { $0.id == "before" })
        before.contents = "changed offline"
        try alice.modify(before)
        try alice.add(Self.note("offline-2", "two"))
        var second = try #require(try alice.annotations().first { $0.id == "offline-2" })
        second.contents = "two, changed"
        try alice.modify(second)
        let running = Task { await alice.run() }
        try await Self.eventually("the client finds the server gone") { (try? alice.pendingChangeCount()) == 3 }
        try await Task.sleep(for: .milliseconds(400))  // a few failing cycles
        #expect(try alice.pendingChangeCount() == 3)

        // The app quits with its queue on disk; the server comes back (on a port of its own:
        // the old one may have gone to another test's server meanwhile); the app starts again
        // over the same storage.
        running.cancel()
        await running.value
        withExtendedLifetime(gone) {}
        let offline = await Self.drain(alice)
        #expect(offline.contains { if case .offline = $0 { true } else { false } })
        try await harness.run(configure: { $0.collaboration = collaboration }) { restarted in
            let again = try Self.client(restarted.url, token, harness.folder, "alice")
            #expect(try again.pendingChangeCount() == 3)
            let rerun = Task { await again.run() }
            defer { rerun.cancel() }
            try await Self.eventually("the queue is sent") { try again.pendingChangeCount() == 0 && again.revision() == online + 3 }
            let changes = try await CollaborationServerTests.changes(restarted, token: token, since: online)
            // Once each, in the order made.
            #expect(changes.revision == online + 3)
            #expect(changes.added.map(\.annotation.id) == ["offline-1", "offline-2"])
            #expect(changes.added.map(\.revision) == [online + 1, online + 3])
            #expect(changes.updated.map(\.annotation.id) == ["before"] && changes.updated.first?.revision == online + 2)
            #expect(changes.added.last?.annotation.contents == "two, changed")
            rerun.cancel()
            await rerun.value
            let events = await Self.drain(again)
            #expect(events.contains { if case .online = $0 { true } else { false } })
            #expect(!events.contains { if case .conflict = $0 { true } else { false } })
        }
    }

    @Test func aSessionInCollaborationReceivesOthersChangesAndSendsItsOwn() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let (aliceToken, bobToken) = (try await keys.token("alice", permissions: Self.editor), try await keys.token("bob", permissions: Self.editor))
        let folder = harness.folder
        let original = try Data(contentsOf: URL(fileURLWithPath: harness.docs + "/annotations.pdf"))
        try await harness.run(configure: { $0.collaboration = collaboration }) { server in
            let url = server.url
            let (alice, bob) = (try Self.client(url, aliceToken, folder, "alice"), try Self.client(url, bobToken, folder, "bob"))
            // Bob's change is on the server before Alice opens the document.
            try bob.add(Self.note("bob-early", "made before alice opened"))
            try await bob.sync()

            let progress = Locked<[Int64]>([])
            let pdf = try await alice.downloadDocument { received, _ in progress.withLock { $0.append(received) } }
            #expect(try Data(contentsOf: pdf) == original)
            #expect(progress.withLock { $0.last } == Int64(original.count))

            let session = ReadingSession(
                file: FileState(internalPath: pdf.path), registry: Fixtures.registry,
                configuration: SessionConfiguration(renderer: .id("mupdf"), collaboration: alice))
            let events = session.events()
            try session.open()
            defer { session.close() }
            let running = Task { await alice.run() }
            defer { running.cancel() }
            try await Self.eventually("the session is brought to the layer") { try session.annotations().contains { $0.id == "bob-early" } }

            // Bob's next change reaches Alice's session, and its delegate hears it as remote.
            try bob.add(Self.note("bob-late", "made while alice reads"))
            try await bob.sync()
            try await Self.eventually("bob's change reaches the session") { try session.annotations().contains { $0.id == "bob-late" } }
            var heard: [AnnotationChanges] = []
            for await event in events {
                if case .annotationsChanged(let changes) = event { heard.append(changes) }
                if heard.flatMap(\.added).contains(where: { $0.id == "bob-late" }) { break }
            }
            #expect(heard.allSatisfy { $0.isRemote })

            // Alice's own edit goes to Bob; Bob's annotation is not hers to change.
            let added = try session.addAnnotation(Self.note("", "from alice's session"))
            #expect(added.author == "alice")
            try await Self.eventually("alice's change reaches bob") {
                try await bob.pull()
                return try bob.annotations().contains { $0.id == added.id && $0.author == "alice" }
            }
            var bobs = try session.annotation(withID: "bob-late")
            bobs.contents = "alice tries"
            #expect(throws: RendererError.self) { try session.updateAnnotation(bobs) }
        }
    }

    @Test func aReadOnlyTokenMakesAReadOnlyReader() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let token = try await keys.token("carol", permissions: ["read-document", "download"])
        let folder = harness.folder
        try await harness.run(configure: { $0.collaboration = collaboration }) { server in
            let carol = try Self.client(server.url, token, folder, "carol")
            #expect(carol.isReadOnly && carol.currentUserID == "carol")
            #expect(throws: RendererError.self) { try carol.add(Self.note("x", "no")) }
            let pdf = try await carol.downloadDocument()
            let session = ReadingSession(
                file: FileState(internalPath: pdf.path), registry: Fixtures.registry,
                configuration: SessionConfiguration(renderer: .id("poppler"), collaboration: carol))
            try session.open()
            defer { session.close() }
            let error = #expect(throws: RendererError.self) { try session.addAnnotation(Self.note("", "no")) }
            #expect(error?.code == .notPermitted)
            try await carol.pull()
            #expect(try carol.pendingChangeCount() == 0 && !(try carol.annotations()).isEmpty)

            // Its local storage goes on request.
            #expect(FileManager.default.fileExists(atPath: carol.folder.path))
            try carol.removeLocalStorage()
            #expect(!FileManager.default.fileExists(atPath: carol.folder.path))
        }
    }

    @Test func anExpiredTokenIsRenewedWithoutLosingQueuedChanges() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        // A token that ended an hour ago, past any leeway: no wait for it to end.
        let shortLived = try await keys.token("alice", permissions: Self.editor, expires: -3_600)
        let renewed = try await keys.token("alice", permissions: Self.editor)
        let asked = Locked(0)
        let folder = harness.folder
        try await harness.run(configure: { $0.collaboration = collaboration }) { server in
            let alice = try Self.client(server.url, shortLived, folder, "alice") {
                asked.withLock { $0 += 1 }
                return renewed
            }
            try alice.add(Self.note("queued", "made with an expired token"))
            try await alice.sync()
            #expect(asked.withLock { $0 } == 1)
            #expect(try alice.pendingChangeCount() == 0)
            let (_, stored) = try await CollaborationServerTests.snapshot(server, token: renewed)
            #expect(stored.contains { $0.annotation.id == "queued" && $0.annotation.author == "alice" })
            let events = await Self.drain(alice)
            #expect(events.contains { if case .tokenRenewed = $0 { true } else { false } })

            // A renewal naming another user is refused, and the change stays queued.
            let mallory = try await keys.token("mallory", permissions: Self.editor)
            let other = try Self.client(server.url, shortLived, folder, "other") { mallory }
            try other.add(Self.note("stays", "queued"))
            await #expect(throws: SyncError.self) { try await other.sync() }
            #expect(try other.pendingChangeCount() == 1)
        }
    }
}
