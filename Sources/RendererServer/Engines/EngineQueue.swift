import RendererProvider
import RendererServerHTTP

/// Admission to engine work by weight: at most `limit` in all running or waiting at once, so
/// that a flood of requests is answered 429 at once instead of waiting without bound. The
/// server keeps two: the engine queue (each render, search or comparison weighs 1) and the
/// render budget (each page image weighs the bytes its pixels take while it is drawn and
/// encoded). A place is given back the moment its work ends.
final class EngineQueue: Sendable {
    private let limit: Int
    private let refusal: @Sendable () -> APIError
    private let admitted = Locked(0)

    /// A queue of `limit`, refusing past it with `refusal` (429 `busy` by default).
    init(limit: Int, refusal: @escaping @Sendable () -> APIError = { APIError.busy }) {
        self.limit = max(1, limit)
        self.refusal = refusal
    }

    /// Runs `body` if the queue has room for `weight`; throws the refusal if it has none.
    func run<T: Sendable>(weight: Int = 1, _ body: @Sendable () async throws -> T) async throws -> T {
        let admission = try admit(weight: weight)
        defer { withExtendedLifetime(admission) {} }
        return try await body()
    }

    /// Admits work of `weight` that may outlive one call (a search streamed page by page):
    /// its place is held until the returned admission is freed. Throws the refusal if there
    /// is no room, and `limit-exceeded` (422, as for every engine limit) for work heavier
    /// than the whole limit.
    func admit(weight: Int = 1) throws -> Admission {
        guard weight <= limit else {
            throw APIError(RendererError(.limitExceeded, "the request needs more than the server gives any one request; ask for less"))
        }
        let room = admitted.withLock { admitted in
            guard admitted + weight <= limit else { return false }
            admitted += weight
            return true
        }
        guard room else { throw refusal() }
        return Admission(queue: self, weight: weight)
    }

    /// A place in the queue, given back when the admission is freed (whether the work it
    /// admitted ran to its end, failed, or never started).
    final class Admission: Sendable {
        private let queue: EngineQueue
        private let weight: Int

        fileprivate init(queue: EngineQueue, weight: Int) {
            self.queue = queue
            self.weight = weight
        }

        deinit {
            let weight = self.weight
            queue.admitted.withLock { $0 -= weight }
        }
    }

    /// The weight admitted now (for the engine queue: tasks running or waiting).
    var count: Int { admitted.withLock { $0 } }
}
