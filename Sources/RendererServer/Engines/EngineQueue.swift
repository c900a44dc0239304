/// The server's admission to engine work: at most `limit` renders, searches and comparisons
/// running or waiting at once, so that a flood of requests is answered 429 at once instead
/// of waiting without bound.
actor EngineQueue {
    private let limit: Int
    private var admitted = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` if the queue has room; throws ``APIError/busy`` if it has none.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        guard admitted < limit else { throw APIError.busy }
        admitted += 1
        defer { admitted -= 1 }
        return try await body()
    }

    /// Engine tasks running or waiting now.
    var count: Int { admitted }
}
