import Crypto
import Foundation
import Logging
import RendererCollaboration
import RendererProvider
import WSClient

/// A reader's side of a collaboration layer: it opens a document descriptor with a token,
/// downloads the document, keeps the layer's annotations and the reader's unsent changes in
/// a local SQLite store, and keeps both in step with the server.
///
/// ```swift
/// let client = try SyncClient(server: url, token: token, storage: folder) { try await backend.renewToken() }
/// let pdf = try await client.downloadDocument { received, expected in … }
/// let session = try ReadingSession(…pdf…, configuration: SessionConfiguration(collaboration: client))
/// Task { await client.run() }            // sync cycles and the layer's WebSocket
/// for await event in client.events { … }  // remote changes, accepted changes, conflicts
/// ```
///
/// As the session's `CollaborationService` it queues every change the reader makes and
/// applies the other readers' changes to the session with
/// `ReadingSession.applyRemoteChanges(_:)` (the session's delegate hears them, marked
/// remote). When the session has loaded the document, the client brings it to the layer:
/// the layer, not the file, is authoritative.
///
/// ``run()`` runs a sync cycle (send the queue, then fetch what changed) every
/// ``Configuration/cycleDelay`` and at once when the WebSocket says the layer changed or the
/// reader made a change. While the server cannot be reached, changes stay queued (on disk)
/// and go, in order and each once, when it answers again. A token the server refuses is
/// renewed by asking the host; the queue is kept meanwhile. Who the reader is and what they
/// may do come from their token: with a read-only token the session refuses edits.
public final class SyncClient: CollaborationService {
    /// Asked for a new token when the server refuses the current one (expired); returns it.
    public typealias TokenRenewal = @Sendable () async throws -> String

    /// How a client syncs.
    public struct Configuration: Sendable {
        /// The time between two sync cycles when nothing wakes the client sooner.
        public var cycleDelay: Duration
        /// The longest a request may take.
        public var requestTimeout: Duration
        /// The most changes sent in one request (the server's limit is 100 by default).
        public var batchSize: Int
        /// Whether to listen on the layer's WebSocket (otherwise changes come by cycles only).
        public var listens: Bool

        /// A configuration: a cycle a second, 30 s requests, batches of 50, listening.
        public init(cycleDelay: Duration = .seconds(1), requestTimeout: Duration = .seconds(30), batchSize: Int = 50, listens: Bool = true) {
            self.cycleDelay = cycleDelay
            self.requestTimeout = requestTimeout
            self.batchSize = batchSize
            self.listens = listens
        }
    }

    /// The document and layer the token opens.
    public let descriptor: DocumentDescriptor
    /// The events of this client, in order (the host should read them; at most 4,096 wait).
    public let events: AsyncStream<SyncEvent>
    /// Where the client keeps this layer: its store and the downloaded document.
    public let folder: URL

    private let configuration: Configuration
    private let connection: LayerConnection
    private let store: SyncStore
    private let claims: Locked<CollaborationClaims>
    private let state = Locked(State())
    private let cycles = SerialGate()
    private let sink: AsyncStream<SyncEvent>.Continuation
    private let logger = Logger(label: "renderer.sync")

    private struct State {
        weak var session: ReadingSession?
        /// What the session loaded, until the client has brought it to the layer.
        var loaded: [Annotation]?
        var online: Bool?
        var wake: AsyncStream<Void>.Continuation?
    }

    /// A client of `server` for the layer `token` opens, keeping its files in a folder of
    /// its own under `storage` (kept between runs: the queue survives a restart).
    /// `renewToken` is asked for a new token when the server refuses the current one.
    /// Throws `TokenError` for a token that is not a collaboration token, `ioFailure` when
    /// the store cannot be opened.
    public init(server: URL, token: String, storage: URL, configuration: Configuration = Configuration(), renewToken: TokenRenewal? = nil) throws {
        let claims = try CollaborationClaims.unverified(token)
        descriptor = try claims.descriptor()
        folder = Self.folder(for: descriptor, user: claims.userID, in: storage)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try SyncStore(path: folder.appendingPathComponent("layer.sqlite").path)
        self.configuration = configuration
        self.claims = Locked(claims)
        (events, sink) = AsyncStream.makeStream(of: SyncEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let (descriptor, sink, held) = (descriptor, sink, self.claims)
        connection = LayerConnection(server: server, descriptor: descriptor, token: token, timeout: configuration.requestTimeout) {
            guard let renewToken else { return nil }
            let renewed = try await renewToken()
            let next = try CollaborationClaims.unverified(renewed)
            guard try next.descriptor() == descriptor, next.userID == held.withLock({ $0.userID }) else {
                throw SyncError(.unauthorized, "the renewed token is for another user, document or layer")
            }
            held.withLock { $0 = next }
            sink.yield(.tokenRenewed)
            return renewed
        }
    }

    deinit {
        sink.finish()
    }

    /// Ends ``events`` once the events already sent are read: for a host done with the
    /// client (the client sends none after it).
    public func finishEvents() {
        sink.finish()
    }

    // MARK: Who the reader is

    /// The reader's user id, from the token.
    public var currentUserID: String { claims.withLock { $0.userID } }

    /// What the reader may do, from the current token.
    public var permissions: CollaborationPermissions { claims.withLock { $0.collaborationPermissions } }

    /// Whether the token allows reading only: the session refuses edits, and so does the client.
    public var isReadOnly: Bool { !permissions.canAnnotate }

    // MARK: The document and the layer

    /// Downloads the document (the PDF as the server serves it) into ``folder``, telling
    /// `progress` the bytes received and expected; returns its path. Needs the token's
    /// `download` permission.
    public func downloadDocument(progress: @escaping @Sendable (Int64, Int64?) -> Void = { _, _ in }) async throws -> URL {
        let destination = folder.appendingPathComponent("document.pdf")
        try await connection.download(to: destination, progress: progress)
        return destination
    }

    /// The layer's annotations as this reader sees them: the server's, with the reader's
    /// unsent changes made on them.
    public func annotations() throws -> [Annotation] { try store.annotations().map(\.annotation) }

    /// The layer's revision as last fetched; -1 before the first.
    public func revision() throws -> Int { try store.revision() }

    /// How many of the reader's changes wait to be sent.
    public func pendingChangeCount() throws -> Int { try store.pendingCount() }

    // MARK: Edits without a session

    /// Adds `annotation` to the layer as the reader's (a new identity when its `id` is
    /// empty); it is sent at the next cycle. With a session open, edit through the session.
    /// Throws `notPermitted` for a read-only token.
    @discardableResult
    public func add(_ annotation: Annotation) throws -> Annotation {
        guard permissions.canAnnotate else { throw RendererError(.notPermitted, "user \(currentUserID) may only read this layer") }
        var added = annotation
        if added.id.isEmpty { added.id = UUID().uuidString.lowercased() }
        added.author = currentUserID
        try record(AnnotationChanges(added: [added]))
        return added
    }

    /// Replaces the annotation of `annotation.id`; throws `invalidArgument` when the layer
    /// has none, `notPermitted` when it is another user's and the token does not allow it.
    public func modify(_ annotation: Annotation) throws {
        let existing = try held(annotation.id)
        guard permissions.mayModify(existing, as: currentUserID) else {
            throw RendererError(.notPermitted, "annotation \"\(existing.id)\" is not user \(currentUserID)'s to change")
        }
        var modified = annotation
        modified.author = existing.author
        try record(AnnotationChanges(modified: [modified]))
    }

    /// Deletes the annotation `id`; throws as ``modify(_:)``.
    public func delete(id: String) throws {
        let existing = try held(id)
        guard permissions.mayRemove(existing, as: currentUserID) else {
            throw RendererError(.notPermitted, "annotation \"\(id)\" is not user \(currentUserID)'s to delete")
        }
        try record(AnnotationChanges(removed: [existing]))
    }

    private func held(_ id: String) throws -> Annotation {
        guard let existing = try annotations().first(where: { $0.id == id }) else {
            throw RendererError(.invalidArgument, "the layer holds no annotation \"\(id)\"")
        }
        return existing
    }

    // MARK: Syncing

    /// One sync cycle: sends the queued changes, then fetches what changed on the server
    /// and applies it (to the store and the open session). Throws ``SyncError``; an
    /// offline client keeps its queue.
    public func sync() async throws {
        try await cycles.run {
            _ = try await self.sendQueue()
            _ = try await self.fetchChanges()
        }
    }

    /// Sends the queued changes, in order, in batches, until the queue is empty or waits
    /// for an answer; returns each change's result. Conflicts also go to ``events``.
    @discardableResult
    public func push() async throws -> [ChangeResult] {
        try await cycles.run { try await self.sendQueue() }
    }

    /// Fetches what changed on the server since the store's revision (the whole layer the
    /// first time) and applies it; returns what changed.
    @discardableResult
    public func pull() async throws -> AnnotationChanges {
        try await cycles.run { try await self.fetchChanges() }
    }

    /// Syncs until the task is cancelled: a cycle every ``Configuration/cycleDelay``, and at
    /// once when the layer's WebSocket reports a change or the reader makes one. Failures
    /// become events (``SyncEvent/offline(_:)`` and the like) and the next cycle tries again.
    public func run() async {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.wake = wake }
        wake.yield()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: self.configuration.cycleDelay)
                    wake.yield()
                }
            }
            if configuration.listens { group.addTask { await self.listen() } }
            for await _ in wakes {
                guard !Task.isCancelled else { break }
                await cycle()
            }
            group.cancelAll()
        }
        state.withLock { $0.wake = nil }
    }

    /// Removes this layer's local storage (store, queue and document). Use it when the
    /// client is done with the layer; unsent changes are lost.
    public func removeLocalStorage() throws {
        try FileManager.default.removeItem(at: folder)
    }

    /// Removes the local storage of `descriptor` under `storage`, if any: every reader's.
    public static func removeLocalStorage(for descriptor: DocumentDescriptor, in storage: URL) throws {
        let folder = layerFolder(for: descriptor, in: storage)
        if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
    }

    /// The folder of `descriptor` under `storage`: named by the SHA-256 of the document id
    /// and layer, so that any id (slashes, quotes) names one folder and only one.
    static func layerFolder(for descriptor: DocumentDescriptor, in storage: URL) -> URL {
        storage.appendingPathComponent(hex(SHA256.hash(data: Data("\(descriptor.documentID)\u{0}\(descriptor.layer)".utf8))))
    }

    /// The folder of `user`'s copy of `descriptor`, inside the layer's folder and named by the
    /// SHA-256 of the user's id: readers under one account never share a store, so a queued
    /// change leaves only with a token of the reader who made it.
    static func folder(for descriptor: DocumentDescriptor, user: String, in storage: URL) -> URL {
        layerFolder(for: descriptor, in: storage).appendingPathComponent(hex(SHA256.hash(data: Data(user.utf8))))
    }

    private static func hex(_ digest: SHA256.Digest) -> String { digest.map { String(format: "%02x", $0) }.joined() }

    // MARK: CollaborationService

    /// The session has loaded the document: the next cycle brings it to the layer.
    public func documentLoaded(_ session: ReadingSession, annotations: [Annotation]) {
        state.withLock {
            $0.session = session
            $0.loaded = annotations
            $0.wake?.yield()
        }
    }

    /// The reader changed annotations in the session: queue them and wake the cycle.
    public func session(_ session: ReadingSession, didChangeLocally changes: AnnotationChanges) {
        do {
            try record(changes)
        } catch {
            sink.yield(.failed("the change could not be queued: \(error)"))
        }
    }

    // MARK: Inside a cycle

    private func record(_ changes: AnnotationChanges) throws {
        try store.recordLocal(changes)
        state.withLock { _ = $0.wake?.yield() }
    }

    /// A cycle of ``run()``: its failures become events.
    private func cycle() async {
        do {
            try await sync()
            setOnline(true, "")
        } catch let error as SyncError where error.kind == .offline {
            setOnline(false, error.message)
        } catch let error as SyncError where error.kind == .rateLimited {
            logger.debug("rate limited; the next cycle tries again")
        } catch is CancellationError {
            return
        } catch {
            sink.yield(.failed("\(error)"))
        }
    }

    private func setOnline(_ online: Bool, _ message: String) {
        let changed = state.withLock { state -> Bool in
            defer { state.online = online }
            return state.online != online
        }
        if changed { sink.yield(online ? .online : .offline(message)) }
    }

    private func sendQueue() async throws -> [ChangeResult] {
        var results: [ChangeResult] = []
        while true {
            let batch = try store.nextBatch(limit: configuration.batchSize)
            guard !batch.isEmpty else { return results }
            let answer = try await connection.push(batch)
            let (conflicts, corrections) = try store.complete(batch, results: answer.results)
            for result in answer.results where result.status == .applied { sink.yield(.accepted(result)) }
            for conflict in conflicts { sink.yield(.conflict(conflict)) }
            try applyToSession(corrections)
            results += answer.results
        }
    }

    private func fetchChanges() async throws -> AnnotationChanges {
        let revision = try store.revision()
        let changes: AnnotationChanges
        let now: Int
        if revision < 0 {
            let snapshot = try await connection.snapshot()
            try store.replace(with: snapshot)
            (changes, now) = (AnnotationChanges(added: snapshot.annotations.map(\.annotation), isRemote: true), snapshot.revision)
        } else {
            let fetched = try await connection.changes(since: revision)
            (changes, now) = (try store.applyRemote(fetched), fetched.revision)
        }
        if !changes.isEmpty { sink.yield(.remote(revision: now, changes: changes)) }
        try bringSessionToLayer(else: changes)
        return changes
    }

    /// Applies `changes` to the session, or, the first time after it loaded the document,
    /// brings it to the whole layer instead.
    private func bringSessionToLayer(else changes: AnnotationChanges) throws {
        let loaded = state.withLock { state -> [Annotation]? in
            defer { state.loaded = nil }
            return state.loaded
        }
        guard let loaded else { return try applyToSession(changes) }
        let layer = try store.annotations()
        let inDocument = Dictionary(loaded.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let inLayer = Set(layer.map(\.annotation.id))
        var difference = AnnotationChanges(isRemote: true)
        for (annotation, revision) in layer {
            if inDocument[annotation.id] == nil {
                difference.added.append(annotation)
            } else if (revision ?? 0) > 0 {  // changed after the base the document holds
                difference.modified.append(annotation)
            }
        }
        difference.removed = loaded.filter { !inLayer.contains($0.id) }
        try applyToSession(difference)
    }

    private func applyToSession(_ changes: AnnotationChanges) throws {
        guard !changes.isEmpty, let session = state.withLock({ $0.session }) else { return }
        do {
            try session.applyRemoteChanges(changes)
        } catch let error as RendererError where error.code == .sessionClosed {
            state.withLock { $0.session = nil }
        }
    }

    /// Listens on the layer's WebSocket until cancelled, reconnecting after a cycle's delay
    /// when the connection ends, or within a second when a draining server asked for it
    /// (`collaborationReconnectCloseCode`); each `change` message wakes a cycle, and the
    /// server's `hello` (its first message) is told as ``SyncEvent/listening``.
    private func listen() async {
        struct Message: Decodable { var type: String }
        while !Task.isCancelled {
            var configuration = WebSocketClientConfiguration(maxFrameSize: collaborationFrameSize)
            configuration.additionalHeaders[.authorization] = "Bearer \(connection.currentToken)"
            var delay = self.configuration.cycleDelay
            do {
                let closed = try await WebSocketClient.connect(url: connection.eventsURL, configuration: configuration, logger: logger) { inbound, outbound, _ in
                    // Cancelling the client closes the connection, which ends the reading.
                    try await withTaskCancellationHandler {
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            guard case .text(let text) = message, let decoded = try? JSONDecoder().decode(Message.self, from: Data(text.utf8)),
                                decoded.type == "change" || decoded.type == "hello"
                            else { continue }
                            if decoded.type == "hello" { self.sink.yield(.listening) }
                            self.state.withLock { _ = $0.wake?.yield() }
                        }
                    } onCancel: {
                        Task { try? await outbound.close(.normalClosure, reason: nil) }
                    }
                }
                if closed?.closeCode == .unknown(collaborationReconnectCloseCode) {
                    delay = min(delay, .milliseconds(Int.random(in: 0...1000)))
                }
            } catch {
                logger.debug("the layer's WebSocket ended: \(error)")
            }
            try? await Task.sleep(for: delay)
        }
    }
}

/// Runs one body at a time, in the order they came: a client's cycles, and the host's own
/// calls of `sync`, `push` and `pull`, never overlap.
private actor SerialGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
    }

    func leave() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    nonisolated func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await enter()
        do {
            let value = try await body()
            await leave()
            return value
        } catch {
            await leave()
            throw error
        }
    }
}
