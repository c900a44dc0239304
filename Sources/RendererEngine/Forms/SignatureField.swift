#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A signature field of a document's form and what its signature dictionary says, read as
/// the file holds it. Nothing is verified cryptographically: the signer's name, time,
/// reason and location are what the signer wrote in the dictionary, not facts checked
/// against the signature or its certificate.
public struct SignatureField: Hashable, Sendable, Codable {
    /// Bytes of the file a signature covers.
    public struct ByteRange: Hashable, Sendable, Codable {
        /// Where the range starts, from the start of the file.
        public var offset: Int
        /// How many bytes it holds.
        public var length: Int

        /// The range of `length` bytes from `offset`.
        public init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }
    }

    /// The field's fully qualified name: the partial names (`/T`) from the top of the form's
    /// field tree, joined by dots.
    public var name: String
    /// The page of the field's widget; nil when no page shows it.
    public var pageIndex: Int?
    /// True when the field holds a signature dictionary (`/V`).
    public var isSigned: Bool
    /// The signer's name as the dictionary gives it (`/Name`).
    public var signerName: String?
    /// When it was signed, as the dictionary says (`/M`).
    public var signingTime: Date?
    /// Why it was signed (`/Reason`).
    public var reason: String?
    /// Where it was signed (`/Location`).
    public var location: String?
    /// The signature's encoding (`/SubFilter`), such as `adbe.pkcs7.detached`.
    public var subFilter: String?
    /// The bytes the signature covers (`/ByteRange`), in the order the dictionary lists them.
    public var byteRanges: [ByteRange]
    /// True when the ranges run from the first byte of the file to its last, leaving out
    /// only what lies between them (the signature value itself): nothing was appended
    /// after signing. False for an unsigned field, or when the file was opened from a
    /// source whose size the engine does not know.
    public var coversWholeFile: Bool
    /// For the document's certification signature (the one the catalog's `/Perms /DocMDP`
    /// names), the changes it permits after it; nil for any other field.
    public var certification: CertificationPermissions?
    /// The fields this signature field locks (its `/Lock`); nil when it locks none.
    public var lock: FieldLock?

    /// A field with the given facts.
    public init(
        name: String, pageIndex: Int?, isSigned: Bool, signerName: String? = nil, signingTime: Date? = nil, reason: String? = nil,
        location: String? = nil, subFilter: String? = nil, byteRanges: [ByteRange] = [], coversWholeFile: Bool = false,
        certification: CertificationPermissions? = nil, lock: FieldLock? = nil
    ) {
        self.name = name
        self.pageIndex = pageIndex
        self.isSigned = isSigned
        self.signerName = signerName
        self.signingTime = signingTime
        self.reason = reason
        self.location = location
        self.subFilter = subFilter
        self.byteRanges = byteRanges
        self.coversWholeFile = coversWholeFile
        self.certification = certification
        self.lock = lock
    }

    /// Whether `ranges` run from the first byte of a file of `fileSize` bytes to its last,
    /// in order and without overlapping.
    public static func rangesCoverWholeFile(_ ranges: [ByteRange], fileSize: Int) -> Bool {
        guard let first = ranges.first, let last = ranges.last, first.offset == 0, fileSize > 0 else { return false }
        let ordered = zip(ranges, ranges.dropFirst()).allSatisfy { $0.offset + $0.length <= $1.offset }
        return ordered && ranges.allSatisfy { $0.length >= 0 } && last.offset + last.length == fileSize
    }
}

/// What a certification signature permits after it: its `/DocMDP` transform's `/P`
/// (ISO 32000-1, 12.8.2.2).
public enum CertificationPermissions: Int, Hashable, Sendable, Codable, CaseIterable {
    /// No change at all.
    case noChanges = 1
    /// Filling in forms, instantiating page templates and signing.
    case formFilling = 2
    /// What ``formFilling`` permits, and creating, changing and deleting annotations.
    case formFillingAndAnnotations = 3
}

/// The form fields a signature field locks (its `/Lock`, ISO 32000-1, 12.7.4.5): a change
/// to their values after the signature breaks it.
public enum FieldLock: Hashable, Sendable, Codable {
    /// Every field.
    case all
    /// The fields named (fully qualified), each with the fields under it.
    case only([String])
    /// Every field but those named (and the fields under them).
    case allBut([String])

    /// Whether the lock holds the field whose fully qualified name is `name`.
    public func locks(_ name: String) -> Bool {
        let named = { (names: [String]) in names.contains { name == $0 || name.hasPrefix($0 + ".") } }
        switch self {
        case .all: return true
        case .only(let names): return named(names)
        case .allBut(let names): return !named(names)
        }
    }
}
