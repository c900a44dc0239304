import ServiceLifecycle

/// Whether a viewer tab is open, for a server that ends with its viewer (`hostapp view`,
/// ``ServerConfiguration/endsWithViewer``): each tab says when it opens and when it goes
/// (`POST /api/viewer/opened` and `/closed`, sent by the page itself); once none is open for
/// ``ServerConfiguration/viewerLinger``, the server stops. A tab reloaded says it went and
/// came back within that time, so a reload never stops the server.
actor ViewerPresence: Service {
    private let linger: Duration
    private var open = 0
    private var generation = 0
    private let changes: AsyncStream<Void>
    private let change: AsyncStream<Void>.Continuation

    init(linger: Duration) {
        self.linger = linger
        (changes, change) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// A tab opened.
    func opened() {
        open += 1
        generation += 1
        change.yield()
    }

    /// A tab went (closed, reloaded or navigated away).
    func closed() {
        open = max(0, open - 1)
        generation += 1
        change.yield()
    }

    /// Returns once no tab has been open for the linger time after one was (ending the
    /// server's service group gracefully); ends early when the group shuts down.
    func run() async throws {
        for await _ in changes.cancelOnGracefulShutdown() {
            guard open == 0 else { continue }
            let seen = generation
            try? await Task.sleep(for: linger)
            if Task.isCancelled { return }
            if open == 0 && generation == seen { return }
        }
    }
}
