import Foundation
import Logging
import NIOSSL
import PostgresNIO
import RendererCollaboration
import RendererProvider
import ServiceLifecycle

/// The collaboration layers in a PostgreSQL database that several server processes share.
///
/// Writers of one layer take the layer's row lock (`SELECT … FOR UPDATE`), so its changes
/// apply one at a time whichever server they came through. Each applied change is announced
/// with `NOTIFY` inside its transaction (PostgreSQL delivers it on commit, and never for a
/// change rolled back); every server `LISTEN`s, and hands the changes of the others to its
/// own WebSockets, so a reader on one server sees a change made through another at once.
/// The tables are created on first use (`renderer_layer`, `renderer_annotation`,
/// `renderer_operation`, the readers' of ``ReaderStateStorage``, the saves' of
/// ``SaveCoordination``, the rate limits' buckets, the revoked tokens' and the
/// ``UploadLedger``'s), under an advisory lock so that servers starting together agree.
package final class PostgresLayerStore: LayerStorage {
    /// The channel the servers announce changes on.
    static let channel = "renderer_layer_changes"
    /// The advisory lock under which the tables are made ("Render" in ASCII).
    static let tablesLock: Int64 = 0x5265_6e64_6572

    let client: PostgresClient
    /// This server, so that it skips its own announcements (its WebSockets already heard).
    private let origin = UUID().uuidString
    private let ready = ReadyLatch()
    let logger: Logger
    /// The database's address without its password, for messages.
    private let address: String
    private let onRemoteChange: @Sendable (DocumentDescriptor, LayerEvent) async -> Void
    private let onListeningAgain: @Sendable (PostgresLayerStore) async -> Void
    /// The list the tokens revoked in the database go to.
    let revocations: RevocationList?
    /// The connections the pool opens at most.
    package let maximumConnections: Int
    private let inFlight = Locked(0)

    /// A store in the database at `url` (`postgres://user[:password]@host[:port]/database`,
    /// `?sslmode=disable|prefer|require`; a password may come from `PGPASSWORD` instead of
    /// the address). `onRemoteChange` is told each change another server applied;
    /// `onListeningAgain` is called when the store listens again after its connection was
    /// lost (announcements made meanwhile were missed: the readers should fetch what
    /// changed). The ids of tokens revoked in the database are kept in `revocations`, read
    /// whole before the store answers (and each time it listens again) and added to as they
    /// are revoked. It connects when its service runs; throws `invalidArgument` for an
    /// address it cannot read.
    package init(
        url: String, logger: Logger, revocations: RevocationList? = nil,
        onRemoteChange: @escaping @Sendable (DocumentDescriptor, LayerEvent) async -> Void,
        onListeningAgain: @escaping @Sendable (PostgresLayerStore) async -> Void
    ) throws {
        let (configuration, address) = try Self.configuration(url)
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        maximumConnections = configuration.options.maximumConnections
        self.address = address
        self.logger = logger
        self.revocations = revocations
        self.onRemoteChange = onRemoteChange
        self.onListeningAgain = onListeningAgain
    }

    /// Whether `database` names a PostgreSQL database rather than a SQLite file.
    package static func names(_ database: String) -> Bool {
        database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")
    }

    package var services: [any Service] { [Runner(store: self)] }

    // MARK: LayerStorage

    package func ping() async throws {
        try await access { client in
            for try await _ in try await client.query("SELECT 1", logger: self.logger).decode(Int32.self) {}
        }
    }

    package func exists(_ descriptor: DocumentDescriptor) async throws -> Bool {
        try await access { client in
            let rows = try await client.query(
                "SELECT id FROM renderer_layer WHERE document = \(descriptor.documentID) AND name = \(descriptor.layer)", logger: self.logger)
            for try await _ in rows.decode(Int64.self) { return true }
            return false
        }
    }

    package func create(_ descriptor: DocumentDescriptor, base: [Annotation]) async throws {
        let encoded = try base.map { ($0, String(decoding: try LayerJSON.encode($0), as: UTF8.self)) }
        try await access { client in
            try await client.withTransaction(logger: self.logger) { connection in
                let rows = try await connection.query(
                    """
                    INSERT INTO renderer_layer (document, name, revision) VALUES (\(descriptor.documentID), \(descriptor.layer), 0)
                    ON CONFLICT (document, name) DO NOTHING RETURNING id
                    """, logger: self.logger)
                var created: Int64?
                for try await id in rows.decode(Int64.self) { created = id }
                guard let layer = created else { return }  // another request created it first
                for (annotation, json) in encoded {
                    try await connection.query(
                        """
                        INSERT INTO renderer_annotation (layer, id, author, json, created, revision)
                        VALUES (\(layer), \(annotation.id), \(annotation.author), \(json), 0, 0) ON CONFLICT DO NOTHING
                        """, logger: self.logger)
                }
            }
        }
    }

    package func revision(_ descriptor: DocumentDescriptor) async throws -> Int {
        try await access { client in try await self.layer(descriptor) { try await client.query($0, logger: self.logger) }.revision }
    }

    package func snapshot(_ descriptor: DocumentDescriptor) async throws -> LayerSnapshot {
        try await access { client in
            try await client.withTransaction(logger: self.logger) { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: self.logger)
                let (layer, revision) = try await self.layer(descriptor) { try await connection.query($0, logger: self.logger) }
                let rows = try await connection.query(
                    "SELECT json, revision FROM renderer_annotation WHERE layer = \(layer) AND NOT deleted ORDER BY revision, id", logger: self.logger)
                var annotations: [StoredAnnotation] = []
                for try await (json, revision) in rows.decode((String, Int64).self) {
                    annotations.append(StoredAnnotation(annotation: try LayerJSON.decode(Data(json.utf8)), revision: Int(revision)))
                }
                return LayerSnapshot(revision: revision, annotations: annotations)
            }
        }
    }

    package func changes(_ descriptor: DocumentDescriptor, since: Int) async throws -> LayerChanges {
        try await access { client in
            try await client.withTransaction(logger: self.logger) { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: self.logger)
                let (layer, revision) = try await self.layer(descriptor) { try await connection.query($0, logger: self.logger) }
                let rows = try await connection.query(
                    """
                    SELECT id, json, created, revision, deleted FROM renderer_annotation
                    WHERE layer = \(layer) AND revision > \(Int64(since)) ORDER BY revision, id
                    """, logger: self.logger)
                var read: [LayerJSON.Row] = []
                for try await (id, json, created, changed, deleted) in rows.decode((String, String, Int64, Int64, Bool).self) {
                    read.append((id, Data(json.utf8), Int(created), Int(changed), deleted))
                }
                return try LayerJSON.changes(since: since, revision: revision, read)
            }
        }
    }

    package func apply(
        _ change: LayerChange, to descriptor: DocumentDescriptor, user: String, permissions: CollaborationPermissions,
        validate: @escaping @Sendable (Annotation) throws -> Void
    ) async throws -> ChangeResult {
        try await access { client in
            try await client.withTransaction(logger: self.logger) { connection in
                // The layer's row lock: writers of one layer take turns, in every process.
                let (layer, revision) = try await self.layer(descriptor, lock: true) { try await connection.query($0, logger: self.logger) }
                let replays = try await connection.query(
                    "SELECT result FROM renderer_operation WHERE layer = \(layer) AND id = \(change.operationID)", logger: self.logger)
                for try await replay in replays.decode(String.self) {
                    return try JSONDecoder.collaboration.decode(ChangeResult.self, from: Data(replay.utf8))
                }
                var change = change
                let id = LayerRules.target(of: &change)
                var root: LayerRules.Held?
                if let rootID = LayerRules.root(of: change) { root = try await self.held(rootID, layer, connection) }
                let replies = change.action == .delete ? LayerRules.replies(to: id, among: try await self.live(layer, connection)) : []
                let (result, write) = LayerRules.decide(
                    change, revision: revision, held: try await self.held(id, layer, connection), root: root, replies: replies,
                    user: user, permissions: permissions, validate: validate)
                let next = Int64(revision + 1)
                switch write {
                case .insert(let annotation):
                    let json = String(decoding: try LayerJSON.encode(annotation), as: UTF8.self)
                    try await connection.query(
                        """
                        INSERT INTO renderer_annotation (layer, id, author, json, created, revision)
                        VALUES (\(layer), \(annotation.id), \(annotation.author), \(json), \(next), \(next))
                        """, logger: self.logger)
                case .update(let annotation):
                    let json = String(decoding: try LayerJSON.encode(annotation), as: UTF8.self)
                    try await connection.query(
                        "UPDATE renderer_annotation SET json = \(json), revision = \(next) WHERE layer = \(layer) AND id = \(annotation.id)",
                        logger: self.logger)
                case .delete(let ids):
                    for id in ids {
                        try await connection.query(
                            "UPDATE renderer_annotation SET deleted = true, revision = \(next) WHERE layer = \(layer) AND id = \(id)",
                            logger: self.logger)
                    }
                case nil:
                    break
                }
                // Only applied changes are kept for replay: a refused one is decided again when it
                // comes again, so a client without rights cannot fill the table.
                guard write != nil else { return result }
                try await connection.query("UPDATE renderer_layer SET revision = \(next) WHERE id = \(layer)", logger: self.logger)
                let notice = Announcement(
                    origin: self.origin, document: descriptor.documentID, layer: descriptor.layer, revision: Int(next),
                    action: change.action, id: id, user: user)
                let payload = String(decoding: try JSONEncoder().encode(notice), as: UTF8.self)
                try await connection.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: self.logger)
                let answer = String(decoding: try JSONEncoder.collaboration.encode(result), as: UTF8.self)
                try await connection.query(
                    "INSERT INTO renderer_operation (layer, id, result) VALUES (\(layer), \(change.operationID), \(answer))", logger: self.logger)
                return result
            }
        }
    }

    // MARK: Reading rows

    /// The layer's row id and revision (with its row locked until the transaction ends,
    /// when `lock`), read with `query`.
    private func layer(
        _ descriptor: DocumentDescriptor, lock: Bool = false, _ query: (PostgresQuery) async throws -> PostgresRowSequence
    ) async throws -> (id: Int64, revision: Int) {
        let select: PostgresQuery =
            lock
            ? "SELECT id, revision FROM renderer_layer WHERE document = \(descriptor.documentID) AND name = \(descriptor.layer) FOR UPDATE"
            : "SELECT id, revision FROM renderer_layer WHERE document = \(descriptor.documentID) AND name = \(descriptor.layer)"
        let rows = try await query(select)
        for try await (id, revision) in rows.decode((Int64, Int64).self) { return (id, Int(revision)) }
        throw LayerNotFound(descriptor: descriptor)
    }

    private func held(_ id: String, _ layer: Int64, _ connection: PostgresConnection) async throws -> LayerRules.Held? {
        try await held(
            "SELECT json, created, revision, deleted FROM renderer_annotation WHERE layer = \(layer) AND id = \(id)", connection).first
    }

    /// The layer's annotations that are not deleted.
    private func live(_ layer: Int64, _ connection: PostgresConnection) async throws -> [LayerRules.Held] {
        try await held("SELECT json, created, revision, deleted FROM renderer_annotation WHERE layer = \(layer) AND NOT deleted", connection)
    }

    private func held(_ query: PostgresQuery, _ connection: PostgresConnection) async throws -> [LayerRules.Held] {
        var held: [LayerRules.Held] = []
        for try await (json, created, revision, deleted) in try await connection.query(query, logger: logger).decode((String, Int64, Int64, Bool).self) {
            held.append((StoredAnnotation(annotation: try LayerJSON.decode(Data(json.utf8)), revision: Int(revision)), Int(created), deleted))
        }
        return held
    }

    /// Runs `body` once the tables exist, turning database errors into `ioFailure`; counted in
    /// ``operationsInFlight`` while it runs.
    func access<T>(_ body: (PostgresClient) async throws -> T) async throws -> T {
        inFlight.withLock { $0 += 1 }
        defer { inFlight.withLock { $0 -= 1 } }
        do {
            try await ready.wait()
            return try await body(client)
        } catch {
            throw surfaced(error)
        }
    }

    /// The store's operations running or waiting for a connection now; each holds at most
    /// one of the pool's ``maximumConnections`` while it runs.
    package var operationsInFlight: Int { inFlight.withLock { $0 } }

    /// `error` as a caller is told it: this project's own errors and the caller's as they
    /// are (also when a transaction wraps them), the database's as `ioFailure`.
    private func surfaced(_ error: any Error) -> any Error {
        switch error {
        case let error as PostgresTransactionError where error.closureError != nil: surfaced(error.closureError!)
        case let error as PassedThrough: error.error
        case is RendererError, is LayerNotFound: error
        default: RendererError(.ioFailure, "the collaboration database at \(address) failed: \(String(reflecting: error).prefix(300))")
        }
    }

    // MARK: Running

    /// What a server announces of each change it applied.
    struct Announcement: Codable {
        var origin: String
        var document: String
        var layer: String
        var revision: Int
        var action: LayerChange.Action
        var id: String
        var user: String
    }

    /// The store's service: it runs the database client, creates the tables, then listens
    /// for the other servers' announcements until the server shuts down. The store answers
    /// once it listens, so that no change another server applies after a reader's WebSocket
    /// said hello can pass unheard.
    struct Runner: Service {
        let store: PostgresLayerStore

        func run() async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.client.run() }
                do {
                    try await store.createTables()
                } catch {
                    let failure = RendererError(
                        .ioFailure, "cannot use the collaboration database at \(store.address): \(String(reflecting: error).prefix(300))")
                    await store.ready.open(failure: failure)
                    group.cancelAll()
                    throw failure
                }
                group.addTask { await store.listen() }
                try? await gracefulShutdown()
                group.cancelAll()
            }
        }
    }

    private func createTables() async throws {
        try await client.withTransaction(logger: logger) { connection in
            // Servers starting together create the tables one after the other.
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.tablesLock))", logger: self.logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS renderer_layer (
                    id BIGSERIAL PRIMARY KEY, document TEXT NOT NULL, name TEXT NOT NULL, revision BIGINT NOT NULL,
                    UNIQUE (document, name))
                """, logger: self.logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS renderer_annotation (
                    layer BIGINT NOT NULL REFERENCES renderer_layer (id), id TEXT NOT NULL, author TEXT, json TEXT NOT NULL,
                    created BIGINT NOT NULL, revision BIGINT NOT NULL, deleted BOOLEAN NOT NULL DEFAULT false,
                    PRIMARY KEY (layer, id))
                """, logger: self.logger)
            try await connection.query(
                "CREATE INDEX IF NOT EXISTS renderer_annotation_by_revision ON renderer_annotation (layer, revision)", logger: self.logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS renderer_operation (
                    layer BIGINT NOT NULL REFERENCES renderer_layer (id), id TEXT NOT NULL, result TEXT NOT NULL,
                    PRIMARY KEY (layer, id))
                """, logger: self.logger)
            for table in Self.readerTables + Self.saveTables + Self.attemptTables + Self.revocationTables + Self.uploadTables {
                try await connection.query(table, logger: self.logger)
            }
        }
    }

    /// Listens for the other servers' announcements until cancelled, listening again a
    /// second after the connection is lost, and then calling `onListeningAgain` (the
    /// announcements made meanwhile were missed). The store answers from the first time it
    /// listens, or fails to.
    private func listen() async {
        var again = false
        while !Task.isCancelled {
            defer { again = true }
            do {
                try await client.withConnection { [again] connection in
                    try await connection.listen(on: Self.channel) { changes in
                        try await connection.listen(on: Self.revocationChannel) { revoked in
                            try await self.readRevocations()
                            await self.ready.open(failure: nil)
                            if again { await self.onListeningAgain(self) }
                            try await self.hear(changes, revoked)
                        }
                    }
                }
            } catch {
                // The client closes its connections when the server shuts down.
                guard !Task.isCancelled, !Task.isShuttingDownGracefully else { return }
                await ready.open(failure: nil)  // the tables exist: changes still apply, and reach readers by their cycles
                logger.warning("listening for other servers' changes failed; listening again in 1 s: \(String(reflecting: error).prefix(300))")
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Hands the changes and revocations announced to this server until either sequence ends
    /// (the connection was lost).
    private func hear(_ changes: PostgresNotificationSequence, _ revoked: PostgresNotificationSequence) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for try await notification in changes { await self.announced(notification.payload) } }
            group.addTask { for try await notification in revoked { self.revocations?.addShared(notification.payload) } }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Hands another server's change to this server's WebSockets, with the annotation as it
    /// is stored now.
    private func announced(_ payload: String) async {
        guard let notice = try? JSONDecoder().decode(Announcement.self, from: Data(payload.utf8)), notice.origin != origin,
            let descriptor = try? DocumentDescriptor(documentID: notice.document, layer: notice.layer)
        else { return }
        do {
            let rows = try await client.query(
                """
                SELECT a.json, a.revision FROM renderer_annotation a JOIN renderer_layer l ON a.layer = l.id
                WHERE l.document = \(notice.document) AND l.name = \(notice.layer) AND a.id = \(notice.id)
                """, logger: logger)
            for try await (json, revision) in rows.decode((String, Int64).self) {
                let stored = StoredAnnotation(annotation: try LayerJSON.decode(Data(json.utf8)), revision: Int(revision))
                let event = LayerEvent(type: "change", revision: notice.revision, action: notice.action, annotation: stored, user: notice.user)
                await onRemoteChange(descriptor, event)
            }
        } catch {
            logger.warning("could not read a change another server announced: \(String(reflecting: error).prefix(300))")
        }
    }

    // MARK: The address

    /// The client's configuration for `url`, and the address without its password.
    static func configuration(_ url: String) throws -> (PostgresClient.Configuration, String) {
        let address = try DatabaseAddress(url)
        let tls: PostgresClient.Configuration.TLS =
            switch address.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        let configuration = PostgresClient.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password, database: address.database, tls: tls)
        return (configuration, address.shown)
    }
}

/// A `postgres://` address, read once for the pool of a store and the single connection of a
/// command.
struct DatabaseAddress {
    enum TLS { case disable, prefer, require }

    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String?
    var tls: TLS
    /// The address without its password, for messages.
    var shown: String

    /// `url` read; throws `invalidArgument` for an address it cannot read.
    init(_ url: String) throws {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, ["postgres", "postgresql"].contains(scheme),
            let host = parts.host, !host.isEmpty, let user = parts.user, !user.isEmpty
        else {
            throw RendererError(.invalidArgument, "the database address must read postgres://user[:password]@host[:port]/database")
        }
        let database = String(parts.path.dropFirst())
        let mode = parts.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        switch mode {
        case "disable": tls = .disable
        case "prefer": tls = .prefer
        case "require": tls = .require
        default: throw RendererError(.invalidArgument, "sslmode must be disable, prefer or require, not \(mode.prefix(20))")
        }
        (self.host, self.user, port) = (host, user, parts.port ?? 5432)
        password = parts.password ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
        self.database = database.isEmpty ? nil : database
        shown = "postgres://\(user)@\(host):\(port)/\(database)"
    }

    /// A single connection's configuration; throws when TLS cannot be set up.
    func connection() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch self.tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        return PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
    }
}

/// Opens once: what waits for it waits until the store's tables exist and it listens (or
/// has tried to), or learns why the tables cannot be made.
private actor ReadyLatch {
    private var state: Result<Void, any Error>?
    private var waiting: [CheckedContinuation<Void, any Error>] = []

    /// Opens the latch, with `failure` for every wait when there is one; only the first
    /// call counts.
    func open(failure: (any Error)?) {
        guard state == nil else { return }
        let result: Result<Void, any Error> = failure.map { .failure($0) } ?? .success(())
        state = result
        for waiter in waiting { waiter.resume(with: result) }
        waiting = []
    }

    func wait() async throws {
        if let state { return try state.get() }
        try await withCheckedThrowingContinuation { waiting.append($0) }
    }
}
