import Foundation
import Hummingbird
import RendererServerHTTP
import ServiceLifecycle

/// Whether the server is shutting down. Run as a service placed after the application in
/// the service group, it hears the graceful shutdown first (a group shuts its services down
/// in reverse order) and closes the gate; the application then finishes the requests in
/// flight while new ones on open connections are answered 503.
final class ShutdownGate: Service, @unchecked Sendable {
    // @unchecked: `closed` is only read and written under `lock`.
    private let lock = NSLock()
    private var closed = false

    /// Whether new requests are refused.
    var isClosed: Bool { lock.withLock { closed } }

    func run() async throws {
        try? await gracefulShutdown()
        lock.withLock { closed = true }
    }
}

/// Answers 503 (with `Connection: close`) once the ``ShutdownGate`` is closed.
struct ShutdownMiddleware<Context: RequestContext>: RouterMiddleware {
    let gate: ShutdownGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !gate.isClosed else { throw APIError.shuttingDown }
        return try await next(request, context)
    }
}
