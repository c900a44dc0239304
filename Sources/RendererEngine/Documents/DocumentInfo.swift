#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a document says about itself: its size, version, metadata and protection.
///
/// The metadata's fields read and write as the info's own (`info.title`), and its JSON is
/// flat: `title` beside `pageCount`.
@dynamicMemberLookup
public struct DocumentInfo: Hashable, Sendable, Codable {
    /// The number of pages.
    public var pageCount: Int
    /// What the document is: a PDF, or another format the engine reads.
    public var contentType: ContentType
    /// The PDF version, such as "1.7"; empty for other formats.
    public var pdfVersion: String
    /// The title, author, dates and the rest, from the Info dictionary.
    public var metadata: DocumentMetadata
    /// True when the file is encrypted, whether or not it needed a password to open.
    public var isEncrypted: Bool
    /// What the document allows; ``DocumentPermissions/all`` for unencrypted files.
    public var permissions: DocumentPermissions
    /// The first, permanent part of the file identifier (the trailer's `/ID`) in lower-case
    /// hexadecimal; nil when the file has none. It stays when the file is renamed, copied or
    /// saved incrementally.
    public var fileIdentifier: String?
    /// The natural language the document declares for its text (the catalog's `/Lang`, a
    /// BCP 47 tag such as `en-GB`); nil when it declares none.
    public var language: String?

    /// Facts as the engine read them.
    public init(
        pageCount: Int, pdfVersion: String, title: String? = nil, author: String? = nil,
        subject: String? = nil, keywords: String? = nil, creator: String? = nil,
        producer: String? = nil, creationDate: Date? = nil, modificationDate: Date? = nil,
        isEncrypted: Bool = false, permissions: DocumentPermissions = .all, fileIdentifier: String? = nil, contentType: ContentType = .pdf,
        language: String? = nil
    ) {
        self.pageCount = pageCount
        self.contentType = contentType
        self.pdfVersion = pdfVersion
        self.metadata = DocumentMetadata(
            title: title, author: author, subject: subject, keywords: keywords, creator: creator, producer: producer,
            creationDate: creationDate, modificationDate: modificationDate)
        self.isEncrypted = isEncrypted
        self.permissions = permissions
        self.fileIdentifier = fileIdentifier
        self.language = language
    }

    /// A field of ``metadata``, such as `info.title`.
    public subscript<Value>(dynamicMember field: WritableKeyPath<DocumentMetadata, Value>) -> Value {
        get { metadata[keyPath: field] }
        set { metadata[keyPath: field] = newValue }
    }

    private enum CodingKeys: String, CodingKey {
        case pageCount, contentType, pdfVersion, isEncrypted, permissions, fileIdentifier, language
    }

    /// Reads the flat form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pageCount = try container.decode(Int.self, forKey: .pageCount)
        contentType = try container.decodeIfPresent(ContentType.self, forKey: .contentType) ?? .pdf
        pdfVersion = try container.decode(String.self, forKey: .pdfVersion)
        metadata = try DocumentMetadata(from: decoder)
        isEncrypted = try container.decode(Bool.self, forKey: .isEncrypted)
        permissions = try container.decode(DocumentPermissions.self, forKey: .permissions)
        fileIdentifier = try container.decodeIfPresent(String.self, forKey: .fileIdentifier)
        language = try container.decodeIfPresent(String.self, forKey: .language)
    }

    /// Writes the metadata's fields beside the others, in one object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pageCount, forKey: .pageCount)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(pdfVersion, forKey: .pdfVersion)
        try metadata.encode(to: encoder)
        try container.encode(isEncrypted, forKey: .isEncrypted)
        try container.encode(permissions, forKey: .permissions)
        try container.encodeIfPresent(fileIdentifier, forKey: .fileIdentifier)
        try container.encodeIfPresent(language, forKey: .language)
    }
}
