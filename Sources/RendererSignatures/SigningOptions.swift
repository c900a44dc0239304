import Foundation
import RendererProvider

/// How `Document.sign(with:options:)` signs: which field, in which encoding, with which
/// digest, what the signature says of itself, and whether it certifies the document.
public struct SigningOptions: Sendable, Hashable {
    /// Which field the signature goes into.
    public enum Placement: Sendable, Hashable {
        /// The document's unsigned signature field of this fully qualified name.
        case field(String)
        /// A new signature field on page `pageIndex`, over `area` (page space) when the
        /// signature is visible, named `name` or the first free `Signature1`, `Signature2`….
        case newField(name: String? = nil, pageIndex: Int, area: PageRect? = nil)
    }

    /// The signature's encoding (`/SubFilter`).
    public enum Encoding: String, Sendable, Hashable, CaseIterable {
        /// PAdES baseline B-B: CAdES with the signing-certificate attribute.
        case cades = "ETSI.CAdES.detached"
        /// The PDF 1.6 detached PKCS#7 signature.
        case pkcs7 = "adbe.pkcs7.detached"
    }

    /// The digest of the signed bytes.
    public enum Digest: String, Sendable, Hashable, CaseIterable {
        /// SHA-256, the default.
        case sha256 = "SHA256"
        /// SHA-384.
        case sha384 = "SHA384"
        /// SHA-512.
        case sha512 = "SHA512"
    }

    /// Which field the signature goes into: by default a new invisible one on the first page.
    public var placement: Placement
    /// Whether the widget shows the signer's name and the time (and the reason and the
    /// location when given). A new visible field needs an area.
    public var isVisible: Bool
    /// The signature's encoding: PAdES by default.
    public var encoding: Encoding
    /// The digest of the signed bytes: SHA-256 by default.
    public var digest: Digest
    /// Why it is signed, written in the signature dictionary (`/Reason`) and, when visible,
    /// shown.
    public var reason: String?
    /// Where it is signed (`/Location`), shown too when visible.
    public var location: String?
    /// How to reach the signer (`/ContactInfo`).
    public var contactInfo: String?
    /// When set, the signature certifies the document: later changes are allowed only as
    /// these permissions say. Only a document's first signature can certify it.
    public var certification: CertificationPermissions?
    /// The signing time written in the signature dictionary (`/M`) and shown; the CMS
    /// signing-time attribute is the clock's when the signature is made.
    public var date: Date
    /// When set, the signature gets this authority's RFC 3161 timestamp of its value, in its
    /// signer's unsigned attributes (PAdES B-T).
    public var timestampAuthority: TimestampAuthority?

    /// Options with every part given; by default an invisible PAdES signature with SHA-256
    /// in a new field on the first page.
    public init(
        placement: Placement = .newField(pageIndex: 0), isVisible: Bool = false, encoding: Encoding = .cades, digest: Digest = .sha256,
        reason: String? = nil, location: String? = nil, contactInfo: String? = nil, certification: CertificationPermissions? = nil,
        date: Date = Date(), timestampAuthority: TimestampAuthority? = nil
    ) {
        self.placement = placement
        self.isVisible = isVisible
        self.encoding = encoding
        self.digest = digest
        self.reason = reason
        self.location = location
        self.contactInfo = contactInfo
        self.certification = certification
        self.date = date
        self.timestampAuthority = timestampAuthority
    }
}
