import Foundation

/// The certificates a signer's chain must lead to for a signature to be called valid, and
/// the certificate revocation lists to check the certificates against.
public struct TrustAnchors: Sendable, Hashable {
    /// PEM text holding one or more certificates (`-----BEGIN CERTIFICATE-----`) and any
    /// certificate revocation lists (`-----BEGIN X509 CRL-----`). A signer's certificate
    /// (or a timestamp authority's) whose issuer issued one of the lists is checked against
    /// it: listed, it is `revoked`; else `notRevoked`. Without its issuer's list, revocation
    /// is not checked (nothing is fetched).
    public var pem: Data
    /// OCSP responses (DER) to check the certificates against, as the revocation lists are:
    /// one that the certificate's issuer (or its delegate) signed says whether it was revoked.
    public var ocspResponses: [Data] = []
    /// Whether the system's trust store (OpenSSL's default paths, Debian's
    /// `/etc/ssl/certs`) counts too.
    public var includesSystem: Bool

    /// Anchors from `pem`, and the system's when `includesSystem` is set; the certificate
    /// revocation lists in `revocationLists` (each DER or PEM) are added to `pem`, and the
    /// OCSP responses (DER) kept.
    public init(pem: Data = Data(), revocationLists: [Data] = [], ocspResponses: [Data] = [], includesSystem: Bool = false) {
        self.pem = pem
        self.ocspResponses = ocspResponses
        for list in revocationLists {
            if list.starts(with: Data("-----BEGIN".utf8)) {
                self.pem += Data("\n".utf8) + list
            } else {
                self.pem += Data("\n-----BEGIN X509 CRL-----\n\(list.base64EncodedString(options: .lineLength64Characters))\n-----END X509 CRL-----\n".utf8)
            }
        }
        self.includesSystem = includesSystem
    }

    /// No anchor: signatures can be intact, but none is valid, since no signer is trusted.
    public static let none = TrustAnchors()

    /// The system's trust store alone.
    public static let system = TrustAnchors(includesSystem: true)

    /// Whether any anchor is given.
    public var isEmpty: Bool { pem.isEmpty && !includesSystem }
}
