import Foundation
import JWTKit
import RendererProvider

/// What a collaboration token says, signed by the application's backend: who the user is
/// (`sub`), which document and layer the token opens (`doc`, `layer`), the user's default
/// group, what they may do (`permissions`) and until when (`exp`).
///
/// Permissions are strings: `read-document`, `write`, `download`, and finer rules such as
/// `annotations:edit:self`, `annotations:edit:all`, `annotations:delete:all`.
public struct CollaborationClaims: JWTPayload, Equatable {
    /// The user's id.
    public var sub: SubjectClaim
    /// When the token stops being valid.
    public var exp: ExpirationClaim
    /// When the token was issued.
    public var iat: IssuedAtClaim
    /// The document's identifier.
    public var doc: String
    /// The layer's name.
    public var layer: String
    /// The user's default group, if any.
    public var group: String?
    /// What the user may do.
    public var permissions: [String]
    /// When the token starts being valid, if it says.
    public var nbf: NotBeforeClaim?
    /// Whom the token is for (a server configured with an audience takes only tokens naming it).
    public var aud: AudienceClaim?
    /// The token's own id, by which it can be revoked.
    public var jti: IDClaim?

    /// Claims for `user` on `descriptor`, valid from `issued` (or `notBefore`, when later)
    /// until `expires`, for `audience` when given, with the id `id` when given.
    public init(
        user: String, descriptor: DocumentDescriptor, group: String? = nil, permissions: [String], issued: Date = Date(), expires: Date,
        notBefore: Date? = nil, audience: [String]? = nil, id: String? = nil
    ) {
        sub = SubjectClaim(value: user)
        exp = ExpirationClaim(value: expires)
        iat = IssuedAtClaim(value: issued)
        nbf = notBefore.map { NotBeforeClaim(value: $0) }
        aud = audience.map { AudienceClaim(value: $0) }
        jti = id.map { IDClaim(value: $0) }
        doc = descriptor.documentID
        layer = descriptor.layer
        self.group = group
        self.permissions = permissions
    }

    /// The user's id.
    public var userID: String { sub.value }

    /// The document and layer the token opens; throws `invalidArgument` when the token
    /// names an empty or malformed one.
    public func descriptor() throws -> DocumentDescriptor { try DocumentDescriptor(documentID: doc, layer: layer) }

    /// The permissions, as a session's collaboration checks them.
    public var collaborationPermissions: CollaborationPermissions { CollaborationPermissions(Set(permissions)) }

    /// The claims of `token` as a client reads its own token: without checking the
    /// signature, which only the server can (it holds the key) and does on every request.
    /// A client uses them to know who it is and what it may do; it never trusts another
    /// party's token this way. Throws `malformed` for what is not a collaboration token.
    public static func unverified(_ token: String) throws(TokenError) -> CollaborationClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16_384, let payload = CollaborationTokens.base64URLDecoded(parts[1]),
            let claims = try? JSONDecoder().decode(CollaborationClaims.self, from: payload)
        else { throw TokenError(.malformed, "the token is not a collaboration JWT") }
        return claims
    }

    /// Checks the expiry; the signature is checked by ``CollaborationTokens``.
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
