import CSignatureCrypto
import Foundation
import RendererProvider

/// A private key with its certificate and the chain that came with them, read from a
/// PKCS#12 file (`.p12`, `.pfx`) by OpenSSL: who signs with `Document.sign(with:options:)`.
///
/// The key stays in this object's memory and is never written or logged.
public final class SigningIdentity: @unchecked Sendable {
    // @unchecked: the OpenSSL identity is read once in `init` and never changed after;
    // `lock` lets one thread at a time sign with it.
    private let handle: OpaquePointer
    private let lock = NSLock()

    /// The certificate's subject on one line (RFC 2253), such as `CN=Ada,O=Example`.
    public let subject: String
    /// The subject's common name; the subject when it has none.
    public let commonName: String
    /// When the certificate starts being valid.
    public let notBefore: Date
    /// When it stops being valid.
    public let notAfter: Date
    /// Whether the certificate's key usage lets it sign documents: no key usage at all, or
    /// one with digitalSignature or nonRepudiation.
    public let keyUsageAllowsSigning: Bool

    /// Reads `pkcs12` with `password`. `wrongPassword` when the password does not open it;
    /// `invalidArgument` when it is not PKCS#12 or holds no private key with its certificate.
    public init(pkcs12: Data, password: String) throws {
        var identity: OpaquePointer?
        var facts = sigcrypto_identity_facts()
        var message = [CChar](repeating: 0, count: 256)
        let status = pkcs12.withUnsafeBytes { bytes in
            sigcrypto_identity_read(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, password, &identity, &facts, &message, message.count)
        }
        switch status {
        case SIGCRYPTO_OK: break
        case SIGCRYPTO_WRONG_PASSWORD: throw RendererError(.wrongPassword, "the password does not open the signing identity")
        case SIGCRYPTO_NO_MEMORY: throw RendererError(.limitExceeded, "out of memory reading the signing identity")
        case SIGCRYPTO_NO_KEY: throw RendererError(.invalidArgument, "the signing identity holds no private key with its certificate")
        default: throw RendererError(.invalidArgument, "the signing identity is not a PKCS#12 file")
        }
        handle = identity!
        subject = CMSBytes.text(of: facts.subject)
        let name = CMSBytes.text(of: facts.common_name)
        commonName = name.isEmpty ? subject : name
        notBefore = Date(timeIntervalSince1970: TimeInterval(facts.not_before))
        notAfter = Date(timeIntervalSince1970: TimeInterval(facts.not_after))
        keyUsageAllowsSigning = facts.key_usage_allows != 0
    }

    /// Reads the PKCS#12 file at `path` as ``init(pkcs12:password:)`` does; `fileNotFound`
    /// when it cannot be read.
    public convenience init(pkcs12File path: String, password: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RendererError(.fileNotFound, "the signing identity \(URL(fileURLWithPath: path).lastPathComponent) cannot be read")
        }
        try self.init(pkcs12: data, password: password)
    }

    deinit {
        sigcrypto_identity_free(handle)
    }

    /// Whether the certificate is valid at `date`.
    public func isValid(at date: Date) -> Bool {
        notBefore <= date && date <= notAfter
    }

    /// A detached CMS signature of `content` (DER), with the digest `digest` (`SHA256`,
    /// `SHA384`, `SHA512`) and, when `cades` is set, the signing-certificate attribute
    /// that CAdES needs.
    func sign(_ content: Data, digest: String, cades: Bool) throws -> Data {
        try lock.withLock {
            try CMSBytes.made("make the signature") { der, length, message, size in
                content.withUnsafeBytes { bytes in
                    sigcrypto_sign(handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, digest, cades ? 1 : 0, &der, &length, message, size)
                }
            }
        }
    }
}
