import Foundation
import JWTKit
import RendererProvider

/// Signs and verifies collaboration tokens (JWTs) with one key: an ES256 (P-256) or RS256
/// key in PEM, as application backends and commercial document servers use, or, for a
/// single machine only and when asked for, an HS256 shared secret.
///
/// A server holds the public key and only verifies; the application's backend (or
/// `hostapp token`, for development) holds the private key and signs. A token signed with
/// another key or another algorithm, expired, malformed, or naming another document or
/// layer than the one asked for is refused with a ``TokenError``; nothing of a refused
/// token is trusted.
public struct CollaborationTokens: Sendable {
    private let keys: JWTKeyCollection
    /// Whether the key can sign (a private key or a shared secret).
    public let canSign: Bool
    /// The algorithm: `ES256`, `RS256` or `HS256`.
    public let algorithm: String

    /// Tokens with the PEM key in `pem`: an EC P-256 or RSA key, public (verify only) or
    /// private (sign and verify). Throws `invalidArgument` for anything else.
    public init(pem: String) async throws {
        let keys = JWTKeyCollection()
        if pem.contains("PRIVATE KEY") {
            if let key = try? ES256PrivateKey(pem: pem) {
                await keys.add(ecdsa: key)
                (canSign, algorithm) = (true, "ES256")
            } else if let key = try? Insecure.RSA.PrivateKey(pem: pem) {
                await keys.add(rsa: key, digestAlgorithm: .sha256)
                (canSign, algorithm) = (true, "RS256")
            } else {
                throw RendererError(.invalidArgument, "the private key is neither an EC P-256 (ES256) nor an RSA (RS256) key in PEM")
            }
        } else if let key = try? ES256PublicKey(pem: pem) {
            await keys.add(ecdsa: key)
            (canSign, algorithm) = (false, "ES256")
        } else if let key = try? Insecure.RSA.PublicKey(pem: pem) {
            await keys.add(rsa: key, digestAlgorithm: .sha256)
            (canSign, algorithm) = (false, "RS256")
        } else {
            throw RendererError(.invalidArgument, "the key is neither an EC P-256 (ES256) nor an RSA (RS256) key in PEM")
        }
        self.keys = keys
    }

    /// Tokens signed and verified with a shared secret (HS256): for one machine, where the
    /// server and whatever issues tokens share the secret. At least 32 bytes.
    public init(sharedSecret: Data) async throws {
        guard sharedSecret.count >= 32 else { throw RendererError(.invalidArgument, "an HS256 secret must be at least 32 bytes") }
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: sharedSecret), digestAlgorithm: .sha256)
        self.keys = keys
        (canSign, algorithm) = (true, "HS256")
    }

    /// A new EC P-256 private key in PEM, for development and tests; its public key is
    /// ``publicKeyPEM(ofPrivateKey:)``.
    public static func makePrivateKeyPEM() -> String { ES256PrivateKey().pemRepresentation }

    /// The public key, in PEM, of an EC P-256 or RSA private key in PEM.
    public static func publicKeyPEM(ofPrivateKey pem: String) throws -> String {
        if let key = try? ES256PrivateKey(pem: pem) { return key.publicKey.pemRepresentation }
        if let key = try? Insecure.RSA.PrivateKey(pem: pem) { return key.publicKey.pemRepresentation }
        throw RendererError(.invalidArgument, "the private key is neither an EC P-256 nor an RSA key in PEM")
    }

    /// `claims` as a signed token; throws `invalidArgument` when the key cannot sign.
    public func issue(_ claims: CollaborationClaims) async throws -> String {
        guard canSign else { throw RendererError(.invalidArgument, "a public key verifies tokens; signing needs the private key") }
        return try await keys.sign(claims)
    }

    /// The claims of `token`, once its signature, algorithm and expiry are checked, then
    /// what `policy` asks (times, lifetime, audience, revocation: ``TokenPolicy/check(_:at:)``)
    /// and, when `descriptor` is given, that it opens that document and layer.
    public func verify(
        _ token: String, for descriptor: DocumentDescriptor? = nil, policy: TokenPolicy = TokenPolicy()
    ) async throws(TokenError) -> CollaborationClaims {
        // The header's algorithm must be this key's: a token signed otherwise (HS256 with a
        // public key as the secret, "none") is refused before any signature is computed.
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16_384 else { throw TokenError(.malformed, "the token is not a JWT") }
        guard let header = Self.base64URLDecoded(parts[0]),
            let fields = try? JSONSerialization.jsonObject(with: header) as? [String: Any], let named = fields["alg"] as? String
        else { throw TokenError(.malformed, "the token's header is not a JWT header") }
        guard named == algorithm else {
            throw TokenError(.badSignature, "the token is signed with \(named.prefix(20)), and this server takes \(algorithm) only")
        }
        let claims: CollaborationClaims
        do {
            claims = try await keys.verify(token, as: CollaborationClaims.self)
        } catch let error as JWTError {
            switch error.errorType {
            case .claimVerificationFailure: throw TokenError(.expired, "the token has expired")
            case .signatureVerificationFailed, .unknownKID, .missingKIDHeader, .unsupportedAlgorithm, .signingAlgorithmFailure:
                throw TokenError(.badSignature, "the token is not signed with this server's key and algorithm (\(algorithm))")
            default: throw TokenError(.malformed, "the token is not a well-formed collaboration token")
            }
        } catch {
            throw TokenError(.malformed, "the token is not a well-formed collaboration token")
        }
        try policy.check(claims)
        guard let named = try? claims.descriptor() else { throw TokenError(.malformed, "the token names no valid document and layer") }
        if let descriptor, named != descriptor {
            throw TokenError(.mismatch, "the token opens \(named), not \(descriptor)")
        }
        return claims
    }

    static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// Why a token was refused. A server answers each with 401.
public struct TokenError: Error, Equatable, CustomStringConvertible {
    /// The kind of refusal.
    public enum Kind: String, Sendable, Equatable {
        /// Signed with another key or algorithm, or not signed at all.
        case badSignature = "bad-signature"
        /// Past its expiry.
        case expired
        /// Not a token, or without the claims a collaboration token has.
        case malformed
        /// For another document or layer than the one asked for.
        case mismatch
        /// Issued in the future or valid only from a later time.
        case notYetValid = "not-yet-valid"
        /// Valid for longer than the server allows any token to be.
        case tooLong = "too-long"
        /// For another audience than the server's.
        case wrongAudience = "wrong-audience"
        /// Revoked by its id.
        case revoked
    }

    /// The kind of refusal.
    public var kind: Kind
    /// What was wrong, for a person; it never repeats the token.
    public var message: String

    /// A refusal of `kind`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
