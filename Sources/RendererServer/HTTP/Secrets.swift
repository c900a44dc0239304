import Crypto
import Foundation

/// The server's secrets (tokens' cookies, readers' ids, unlock keys): new random ones, the
/// digests stored in their place, and the names of the cookies that carry them.
enum Secrets {
    /// A new secret: 32 bytes from the system's random generator, in base64url without padding.
    static func random() -> String {
        Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The first `bytes` bytes of SHA-256 over `parts` joined by NUL, in hex.
    static func digest(of parts: [String], bytes: Int = 32) -> String {
        SHA256.hash(data: Data(parts.joined(separator: "\u{0}").utf8)).prefix(bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// A cookie name of this server's own: `prefix`, then a short digest of `parts` (which
    /// hold the server's token). A browser sends a host's cookies to every port of it, and
    /// servers on one host must not take each other's cookies for their own; whoever sees a
    /// name sees the cookie itself, so the digest tells nothing new.
    static func cookieName(_ prefix: String, for parts: String..., bytes: Int = 6) -> String {
        prefix + digest(of: parts, bytes: bytes)
    }
}
