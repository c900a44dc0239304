import Foundation
import Hummingbird
import RendererServerHTTP
import ServiceLifecycle

/// Whether the server is draining: stopping, with what is in flight still being finished.
/// Run as a service placed after the application in the service group, it hears the
/// graceful shutdown first (a group shuts its services down in reverse order): it closes
/// the gate, so that new requests on open connections are answered 503 and `/api/ready`
/// says the server is not ready, and runs `onClose` (which tells the layer WebSockets'
/// clients to connect again). The application then finishes the requests in flight.
final class ShutdownGate: Service, @unchecked Sendable {
    // @unchecked: `closed` is only read and written under `lock`.
    private let lock = NSLock()
    private var closed = false
    private let onClose: @Sendable () async -> Void

    /// A gate that runs `onClose` once it has closed.
    init(onClose: @escaping @Sendable () async -> Void = {}) {
        self.onClose = onClose
    }

    /// Whether new requests are refused.
    var isClosed: Bool { lock.withLock { closed } }

    func run() async throws {
        try? await gracefulShutdown()
        lock.withLock { closed = true }
        await onClose()
    }
}

/// Answers 503 (with `Connection: close`) once the ``ShutdownGate`` is closed, to every
/// request but those to the path `stillAnswered` (the liveness route: a draining server is
/// still alive).
struct ShutdownMiddleware<Context: RequestContext>: RouterMiddleware {
    let gate: ShutdownGate
    let stillAnswered: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !gate.isClosed || request.uri.path == stillAnswered else { throw APIError.shuttingDown }
        return try await next(request, context)
    }
}
