import Hummingbird
import RendererProvider
import RendererServerHTTP

extension Request {
    /// Runs `body`, cancelled if the client closes its connection meanwhile: for engine
    /// work, a cancelled render stops at the engine's next check instead of drawing for no
    /// one. Hummingbird watches the connection by reading it while `body` runs, so the
    /// connection is closed after the response: the response must say `Connection: close`
    /// so that clients open another instead of reusing it; errors thrown here say it too.
    func cancellingIfClientLeaves<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        do {
            return try await self.body.consumeWithCancellationOnInboundClose { _ in try await body() }
        } catch {
            var answer = APIError.from(error is CancellationError ? RendererError(.cancelled, "the client went away; the work was stopped") : error)
            answer.headers[.connection] = "close"
            throw answer
        }
    }
}
