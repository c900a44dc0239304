#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A signature for an engine to lay into a document's file as an incremental update, with
/// room left for the signature value: what `RendererSignatures`' `Document.sign` asks of an
/// engine (``DocumentSigning/prepareSignatureUpdate(_:of:)``) before it signs the bytes.
public struct SignatureUpdateRequest: Hashable, Sendable, Codable {
    /// Which field the signature goes into.
    public enum Placement: Hashable, Sendable, Codable {
        /// The existing unsigned signature field of this fully qualified name; its widget's
        /// rectangle shows the appearance.
        case field(String)
        /// A new field `name` on page `pageIndex`, shown over `area` (page space), or
        /// invisible when `area` is nil.
        case newField(name: String, pageIndex: Int, area: PageRect?)
    }

    /// The encoding of a document timestamp (ISO 32000-2, 12.8.5).
    public static let documentTimestamp = "ETSI.RFC3161"

    /// Which field the signature goes into.
    public var placement: Placement
    /// The signature's encoding (`/SubFilter`): `adbe.pkcs7.detached`, `ETSI.CAdES.detached`,
    /// or ``documentTimestamp`` for a `/DocTimeStamp`, which has no `/M` or `/Name`.
    public var subFilter: String
    /// The signer's name (`/Name`).
    public var signerName: String?
    /// The signing time (`/M`).
    public var signingTime: Date
    /// Why it is signed (`/Reason`).
    public var reason: String?
    /// Where it is signed (`/Location`).
    public var location: String?
    /// How to reach the signer (`/ContactInfo`).
    public var contactInfo: String?
    /// When set, the signature certifies the document with these permissions (a `/DocMDP`
    /// reference, and the catalog's `/Perms`).
    public var certification: CertificationPermissions?
    /// The lines of text the widget shows, top to bottom; none leaves a visible field
    /// without an appearance of its own.
    public var appearanceLines: [String]
    /// The font to draw the lines in, when they need characters WinAnsiEncoding does not
    /// hold; nil draws them in Helvetica.
    public var appearanceFont: AppearanceFont?
    /// How many bytes the signature value may take.
    public var signatureCapacity: Int

    /// A request with every part given.
    public init(
        placement: Placement, subFilter: String, signerName: String?, signingTime: Date, reason: String? = nil, location: String? = nil,
        contactInfo: String? = nil, certification: CertificationPermissions? = nil, appearanceLines: [String] = [], appearanceFont: AppearanceFont? = nil,
        signatureCapacity: Int
    ) {
        self.placement = placement
        self.subFilter = subFilter
        self.signerName = signerName
        self.signingTime = signingTime
        self.reason = reason
        self.location = location
        self.contactInfo = contactInfo
        self.certification = certification
        self.appearanceLines = appearanceLines
        self.appearanceFont = appearanceFont
        self.signatureCapacity = signatureCapacity
    }
}

/// A TrueType font for a visible signature's appearance: a subset of its program that keeps
/// the font's glyph identifiers (so that a character code is its glyph), and what the
/// appearance needs of each character it shows.
public struct AppearanceFont: Hashable, Sendable, Codable {
    /// A character's glyph and how far it advances, in thousandths of the font size.
    public struct Glyph: Hashable, Sendable, Codable {
        /// The glyph's identifier in the font (its character code in the appearance).
        public var id: UInt16
        /// How far it advances, in thousandths of the font size.
        public var advance: Double

        /// A glyph and its advance.
        public init(id: UInt16, advance: Double) {
            self.id = id
            self.advance = advance
        }
    }

    /// The font's PostScript name, with the subset's tag (`ABCDEF+Name`).
    public var name: String
    /// The subset program (a TrueType file).
    public var program: Data
    /// Each character the font draws (a Unicode scalar value), with its glyph.
    public var glyphs: [UInt32: Glyph]
    /// How far the font rises above the baseline, in thousandths of the font size.
    public var ascent: Double
    /// How far it falls below the baseline (negative), in thousandths of the font size.
    public var descent: Double
    /// Its capital letters' height, in thousandths of the font size.
    public var capHeight: Double

    /// A font with every part given.
    public init(name: String, program: Data, glyphs: [UInt32: Glyph], ascent: Double, descent: Double, capHeight: Double) {
        self.name = name
        self.program = program
        self.glyphs = glyphs
        self.ascent = ascent
        self.descent = descent
        self.capHeight = capHeight
    }
}

/// A file with a signature laid in but not yet made: the original bytes, then an incremental
/// update whose signature value (`/Contents`) is zeros between the two byte ranges.
public struct PreparedSignatureUpdate: Hashable, Sendable, Codable {
    /// The whole file.
    public var data: Data
    /// The two ranges the signature covers (`/ByteRange`): everything but the hexadecimal
    /// string of the value, `<` and `>` included.
    public var byteRanges: [SignatureField.ByteRange]

    /// The prepared bytes and their ranges.
    public init(data: Data, byteRanges: [SignatureField.ByteRange]) {
        self.data = data
        self.byteRanges = byteRanges
    }
}

/// Validation data for long-term validation (PAdES B-LT), each item DER: what a document
/// security store (`/DSS`) keeps so that signatures can be checked after their certificates
/// expire or the services that vouch for them go.
public struct ValidationData: Hashable, Sendable, Codable {
    /// Certificates of signers, their issuers and time-stamping authorities.
    public var certificates: [Data]
    /// Certificate revocation lists.
    public var crls: [Data]
    /// OCSP responses.
    public var ocspResponses: [Data]

    /// Validation data with the given items; none by default.
    public init(certificates: [Data] = [], crls: [Data] = [], ocspResponses: [Data] = []) {
        self.certificates = certificates
        self.crls = crls
        self.ocspResponses = ocspResponses
    }

    /// Whether it holds nothing.
    public var isEmpty: Bool { certificates.isEmpty && crls.isEmpty && ocspResponses.isEmpty }
}
