import ServiceLifecycle

/// Whether a viewer tab is open, for a server that ends with its viewer (`hostapp view`,
/// ``ServerConfiguration/endsWithViewer``): each tab says when it opens and when it goes
/// (`POST /api/viewer/opened` and `/closed`, sent by the page itself); once none is open for
/// ``ServerConfiguration/viewerLinger``, the server stops. A tab reloaded says it went and
/// came back within that time, so a reload never stops the server.
///
/// A tab names each time it is open (`?tab=`), and is open once that name's opened has come
/// and its closed has not, in whichever order the two arrive (a browser sends them on
/// connections of its own, so a closed can overtake its opened), each counted once. A tab
/// that gives no name is counted as told, as one open tab more or less.
actor ViewerPresence: Service {
    /// The most names of tabs that went kept, so that an opened arriving after its closed
    /// is not counted: the oldest are forgotten first.
    static let closedNamesKept = 1024

    private let linger: Duration
    private var openTabs: Set<String> = []
    private var closedTabs: Set<String> = []
    private var closedOrder: [String] = []
    private var unnamed = 0
    private var generation = 0
    private let changes: AsyncStream<Void>
    private let change: AsyncStream<Void>.Continuation

    init(linger: Duration) {
        self.linger = linger
        (changes, change) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Whether a tab is open.
    var isOpen: Bool { !openTabs.isEmpty || unnamed > 0 }

    /// The tab `name` (nil: an unnamed one) opened.
    func opened(_ name: String?) {
        if let name {
            guard !closedTabs.contains(name) else { return }
            openTabs.insert(name)
        } else {
            unnamed += 1
        }
        changed()
    }

    /// The tab `name` (nil: an unnamed one) went (closed, reloaded or navigated away).
    func closed(_ name: String?) {
        if let name {
            openTabs.remove(name)
            if closedTabs.insert(name).inserted {
                closedOrder.append(name)
                if closedOrder.count > Self.closedNamesKept { closedTabs.remove(closedOrder.removeFirst()) }
            }
        } else {
            unnamed = max(0, unnamed - 1)
        }
        changed()
    }

    private func changed() {
        generation += 1
        change.yield()
    }

    /// Returns once no tab has been open for the linger time after one was (ending the
    /// server's service group gracefully); ends early when the group shuts down.
    func run() async throws {
        for await _ in changes.cancelOnGracefulShutdown() {
            guard !isOpen else { continue }
            let seen = generation
            try? await Task.sleep(for: linger)
            if Task.isCancelled { return }
            if !isOpen && generation == seen { return }
        }
    }
}
