/// Why a sync client's request failed. A client that is ``Kind/offline`` keeps its queued
/// changes and tries again at its next cycle; the other kinds are the server's answer.
public struct SyncError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Equatable {
        /// The server cannot be reached (not running, no network, timed out).
        case offline
        /// 401: the token is expired, wrongly signed or for another layer, and no renewed
        /// token was given.
        case unauthorized
        /// 403: the token does not grant what was asked (`download`, for instance).
        case forbidden
        /// 404: the server does not serve the document, or does not collaborate.
        case notFound = "not-found"
        /// 413: the request is too large for the server.
        case tooLarge = "too-large"
        /// 429: too many requests; the client waits for its next cycle.
        case rateLimited = "rate-limited"
        /// Another status from the server.
        case server
        /// The local store or the downloaded file cannot be written.
        case storage
    }

    /// What went wrong.
    public var kind: Kind
    /// What happened, for a person (the server's own message when it sent one).
    public var message: String

    /// An error of `kind`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The error of an HTTP answer with `status`.
    static func status(_ status: Int, _ message: String) -> SyncError {
        let kind: Kind =
            switch status {
            case 401: .unauthorized
            case 403: .forbidden
            case 404: .notFound
            case 413: .tooLarge
            case 429: .rateLimited
            default: .server
            }
        return SyncError(kind, "\(status): \(message)")
    }

    /// The kind and the message, as `offline: the server cannot be reached: …`.
    public var description: String { "\(kind.rawValue): \(message)" }
}
