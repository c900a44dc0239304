import Foundation
import RendererProvider

/// What a server asks of a collaboration token beyond its signature and expiry: that it was
/// issued in the past and is valid now (`iat`, `nbf`, each with ``leeway`` for clocks that
/// differ), that it lives no longer than ``maximumLifetime`` from its issue to its expiry,
/// that it names the server's ``audience`` when one is set, and that its id (`jti`) is not in
/// ``revocations``.
public struct TokenPolicy: Sendable {
    /// How far the issuer's clock may be ahead of the server's, in seconds.
    public var leeway: TimeInterval
    /// The longest a token may be valid, from `iat` to `exp`, in seconds.
    public var maximumLifetime: TimeInterval
    /// The audience tokens must name (`aud`), if any.
    public var audience: String?
    /// The revoked token ids, if the server keeps a list.
    public var revocations: RevocationList?

    /// A policy with a leeway of 60 s, tokens living at most a day, no audience and no
    /// revocations unless given.
    public init(leeway: TimeInterval = 60, maximumLifetime: TimeInterval = 86_400, audience: String? = nil, revocations: RevocationList? = nil) {
        self.leeway = leeway
        self.maximumLifetime = maximumLifetime
        self.audience = audience
        self.revocations = revocations
    }

    /// Throws the ``TokenError`` that `claims` earn at `now`, if any.
    public func check(_ claims: CollaborationClaims, at now: Date = Date()) throws(TokenError) {
        guard claims.iat.value <= now.addingTimeInterval(leeway) else { throw TokenError(.notYetValid, "the token was issued in the future") }
        if let notBefore = claims.nbf?.value, notBefore > now.addingTimeInterval(leeway) {
            throw TokenError(.notYetValid, "the token is not valid yet")
        }
        guard claims.exp.value.timeIntervalSince(claims.iat.value) <= maximumLifetime else {
            throw TokenError(.tooLong, "the token is valid for longer than this server allows (\(Int(maximumLifetime)) s)")
        }
        if let audience, !(claims.aud?.value.contains(audience) ?? false) {
            throw TokenError(.wrongAudience, "the token is not for this server's audience")
        }
        if let id = claims.jti?.value, revocations?.contains(id) == true { throw TokenError(.revoked, "the token has been revoked") }
    }
}

/// The ids (`jti`) of revoked tokens: those of a file of one id per line (blank lines and
/// lines starting with `#` skipped), read again by ``reload()`` as a server does on SIGHUP,
/// and, for servers sharing a PostgreSQL database, those revoked there (`hostapp token
/// revoke`), which the server hands it as they come. A list whose file cannot be read keeps
/// what it had and says why.
public final class RevocationList: Sendable {
    /// The file the ids are read from; nil for a list of the database's ids only.
    public let path: String?
    private let ids: Locked<(file: Set<String>, shared: Set<String>)>

    /// The list in the file at `path`; throws `fileNotFound` or `ioFailure` when it cannot be read.
    public init(path: String) throws {
        self.path = path
        ids = Locked((try Self.read(path), []))
    }

    /// An empty list, which only the ids revoked in a shared database fill.
    public init() {
        path = nil
        ids = Locked(([], []))
    }

    /// Whether `id` is revoked.
    public func contains(_ id: String) -> Bool { ids.withLock { $0.file.contains(id) || $0.shared.contains(id) } }

    /// How many ids are revoked.
    public var count: Int { ids.withLock { $0.file.union($0.shared).count } }

    /// Reads the file again (if there is one); on an error the list keeps what it had, and
    /// the error is thrown.
    public func reload() throws {
        guard let path else { return }
        let fresh = try Self.read(path)
        ids.withLock { $0.file = fresh }
    }

    /// Takes `ids` as every id revoked in the shared database, in place of those it had.
    package func replaceShared(_ ids: Set<String>) {
        self.ids.withLock { $0.shared = ids }
    }

    /// Adds `id`, just revoked in the shared database.
    package func addShared(_ id: String) {
        ids.withLock { _ = $0.shared.insert(id) }
    }

    private static func read(_ path: String) throws -> Set<String> {
        guard FileManager.default.fileExists(atPath: path) else { throw RendererError(.fileNotFound, "no revocation list at \(path)") }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw RendererError(.ioFailure, "cannot read the revocation list \(path) as UTF-8 text")
        }
        return Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }
}
