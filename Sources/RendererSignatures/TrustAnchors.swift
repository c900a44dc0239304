import Foundation

/// The certificates a signer's chain must lead to for a signature to be called valid.
public struct TrustAnchors: Sendable, Hashable {
    /// PEM text holding one or more certificates (`-----BEGIN CERTIFICATE-----`).
    public var pem: Data
    /// Whether the system's trust store (OpenSSL's default paths, Debian's
    /// `/etc/ssl/certs`) counts too.
    public var includesSystem: Bool

    /// Anchors from `pem`, and the system's when `includesSystem` is set.
    public init(pem: Data = Data(), includesSystem: Bool = false) {
        self.pem = pem
        self.includesSystem = includesSystem
    }

    /// No anchor: signatures can be intact, but none is valid, since no signer is trusted.
    public static let none = TrustAnchors()

    /// The system's trust store alone.
    public static let system = TrustAnchors(includesSystem: true)

    /// Whether any anchor is given.
    public var isEmpty: Bool { pem.isEmpty && !includesSystem }
}
