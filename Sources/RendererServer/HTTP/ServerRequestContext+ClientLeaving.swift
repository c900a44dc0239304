import Hummingbird
import RendererProvider
import RendererServerHTTP

extension ServerRequestContext {
    /// Runs `body`, cancelled if the client goes meanwhile (``clientGone``): for engine work,
    /// a cancelled render stops at the engine's next check instead of drawing for no one.
    /// The connection is watched, not read, so it stays open for the client's next request.
    func cancellingIfClientLeaves<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let work = Task { try await body() }
        // Cancelling work that has ended does nothing; the callback holds only the task.
        clientGone.whenComplete { _ in work.cancel() }
        do {
            return try await withTaskCancellationHandler { try await work.value } onCancel: { work.cancel() }
        } catch is CancellationError {
            throw RendererError(.cancelled, "the client went away; the work was stopped")
        }
    }
}
