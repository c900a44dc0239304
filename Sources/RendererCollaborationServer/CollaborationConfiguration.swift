import Foundation
import RendererCollaboration
import RendererSignatures

/// How a server keeps collaboration layers: the key its tokens are verified with, and the
/// database the layers live in: a SQLite file for one server, or PostgreSQL, which several
/// servers share (with each change announced to all of them).
public struct CollaborationConfiguration: Sendable {
    /// Verifies the readers' tokens (a public key, or an HS256 secret when asked for).
    public var tokens: CollaborationTokens
    /// The layers' database: the path of a SQLite file (created when missing), or a
    /// PostgreSQL address, `postgres://user@host:port/database` (tables created when missing).
    public var database: String
    /// The most changes one push may hold (past it: 413).
    public var changesPerRequest: Int
    /// The most collaboration requests one user may make per second (past it: 429).
    public var requestsPerSecond: Int
    /// The messages kept for one layer WebSocket that its client has not read yet: a client
    /// that falls further behind is disconnected (it catches up by its next sync), and no
    /// other client ever waits for it.
    public var eventBacklog: Int = 256
    /// What tokens must be beyond signed and unexpired: times, lifetime, audience and
    /// revocations (read again on SIGHUP when the server runs as a service group's).
    public var policy = TokenPolicy()
    /// The identity each user (a token's `sub`) signs documents with through
    /// `POST /api/collab/documents/{id}/layers/{layer}/signatures`, when the token grants
    /// `sign`; a user without one cannot sign. Keys stay in the server's memory.
    public var signingIdentities: [String: SigningIdentity] = [:]
    /// The time `requestsPerSecond` is counted by: the continuous clock. A test that must
    /// know which requests are refused holds it still, so that no request's allowance comes
    /// back while the test runs, however slow the machine.
    public var clock: @Sendable () -> ContinuousClock.Instant = { .now }
    /// Returns when a layer WebSocket's token has ended, and the server closes the socket
    /// (policy violation): by default once the wall clock has passed the token's `exp`. A test
    /// that must see a socket closed at its token's end says when that is, rather than making
    /// a token that lives a few seconds on a machine of unknown speed.
    public var tokenEnd: @Sendable (CollaborationClaims) async throws -> Void = { claims in
        try await CollaborationConfiguration.waitForWallClock(to: claims.exp.value)
    }

    /// Returns once `Date()` is at or past `date`. The sleep is measured by the continuous
    /// clock and the date by the wall clock, which may be set back meanwhile: it sleeps again
    /// for what remains until the wall clock agrees.
    static func waitForWallClock(to date: Date) async throws {
        while case let remaining = date.timeIntervalSinceNow, remaining > 0 {
            try await Task.sleep(for: .seconds(min(remaining, 1e9)))
        }
    }

    /// Layers in `database`, for readers whose tokens `tokens` verifies.
    public init(tokens: CollaborationTokens, database: String, changesPerRequest: Int = 100, requestsPerSecond: Int = 50) {
        self.tokens = tokens
        self.database = database
        self.changesPerRequest = changesPerRequest
        self.requestsPerSecond = requestsPerSecond
    }
}
