import Logging
import RendererCollaboration
import RendererLayers
import RendererServerHTTP
import ServiceLifecycle

/// What a collaborating server keeps for as long as it runs, whichever routes are built
/// over it: the layers' database, the listeners of each layer's WebSocket and the sockets
/// themselves, and the limit of each user's requests.
package final class CollaborationBackend: Sendable {
    /// The configuration it was made for.
    package let configuration: CollaborationConfiguration
    /// Where the layers live.
    let store: any LayerStorage
    /// Where readers' bookmarks and places are kept for every server sharing the layers'
    /// database; nil for a SQLite database, which is the server's own.
    package var readerStates: (any ReaderStateStorage)? { store as? any ReaderStateStorage }
    /// The rate limits' buckets of every server sharing the layers' database, for limits they
    /// enforce together; nil for a SQLite database, which is the server's own.
    package var sharedAttempts: SharedAttemptBucket? { Self.sharedAttempts(in: store) }
    /// The shared database's operations running or waiting now, and the connections its pool
    /// opens at most; nil for a SQLite database.
    package var databaseUse: (inFlight: Int, maximumConnections: Int)? {
        (store as? PostgresLayerStore).map { ($0.operationsInFlight, $0.maximumConnections) }
    }
    /// The uploads' ledger of servers sharing the layers' database (and a folder of
    /// uploads); nil for a SQLite database, which is the server's own.
    package var uploadLedger: (any UploadLedger)? { store as? any UploadLedger }
    /// How servers sharing the layers' database take turns at saving a document; nil for a
    /// SQLite database, which is the server's own (its file lock is enough).
    package var saveCoordination: (any SaveCoordination)? { store as? any SaveCoordination }
    /// Who listens to which layer's WebSocket.
    let events: LayerEvents
    /// Collaboration requests per user per second.
    let limiter: RateLimiter
    /// The open layer WebSockets, which a draining server tells to connect again.
    package let sockets = OpenSockets()

    /// Opens or creates the layers' database `configuration` names; throws `ioFailure` when
    /// it cannot.
    package init(configuration: CollaborationConfiguration, logger: Logger) throws {
        var configuration = configuration
        // Tokens revoked in a shared database are refused too, with or without a file of them.
        if PostgresLayerStore.names(configuration.database), configuration.policy.revocations == nil {
            configuration.policy.revocations = RevocationList()
        }
        self.configuration = configuration
        let events = LayerEvents(backlog: configuration.eventBacklog)
        self.events = events
        if PostgresLayerStore.names(configuration.database) {
            // Other servers' changes go to this server's WebSockets; when some may have been
            // missed, each socket is told the layer's revision again, to fetch what changed.
            store = try PostgresLayerStore(url: configuration.database, logger: logger, revocations: configuration.policy.revocations) {
                descriptor, event in
                await events.publish(event.json, to: descriptor)
            } onListeningAgain: { store in
                for descriptor in await events.descriptors() {
                    guard let revision = try? await store.revision(descriptor) else { continue }
                    await events.publish(LayerEvent(type: "hello", revision: revision).json, to: descriptor)
                }
            }
        } else {
            store = try SQLiteLayerStore(path: configuration.database)
        }
        limiter = RateLimiter(
            requestsPerSecond: configuration.requestsPerSecond, now: configuration.clock, shared: Self.sharedAttempts(in: store).map { ("collaboration", $0) })
    }

    private static func sharedAttempts(in store: any LayerStorage) -> SharedAttemptBucket? {
        guard let store = store as? PostgresLayerStore else { return nil }
        return { limiter, client, burst, period in try await store.takeAttempt(limiter: limiter, client: client, burst: burst, period: period) }
    }

    /// Whether the layers' database answers a query within `limit`; returns by then even
    /// when the query waits on (a database that is down may keep it waiting for a
    /// connection much longer).
    package func databaseAnswers(within limit: Duration) async -> Bool {
        let (answers, continuation) = AsyncStream.makeStream(of: Bool.self)
        let query = Task { [store] in continuation.yield((try? await store.ping()) != nil) }
        let timer = Task {
            try? await Task.sleep(for: limit)
            continuation.yield(false)
        }
        var first = answers.makeAsyncIterator()
        let answered = await first.next() ?? false
        continuation.finish()
        query.cancel()
        timer.cancel()
        return answered
    }

    /// The services that run beside the server: the database's (started before the server,
    /// stopped after it) and the reloading of the revocation list on SIGHUP.
    package func services(logger: Logger) -> [any Service] {
        let file = configuration.policy.revocations.flatMap { $0.path == nil ? nil : $0 }
        return store.services + (file.map { [RevocationReloader(list: $0, logger: logger)] } ?? [])
    }
}
