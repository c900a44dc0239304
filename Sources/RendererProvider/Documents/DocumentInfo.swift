import Foundation

/// What a document says about itself: its size, version, metadata and protection.
public struct DocumentInfo: Hashable, Sendable, Codable {
    /// The number of pages.
    public var pageCount: Int
    /// The PDF version, such as "1.7".
    public var pdfVersion: String
    /// The title, from the Info dictionary.
    public var title: String?
    /// The author, from the Info dictionary.
    public var author: String?
    /// The subject, from the Info dictionary.
    public var subject: String?
    /// The keywords, from the Info dictionary.
    public var keywords: String?
    /// The application that created the original document.
    public var creator: String?
    /// The application that wrote the PDF.
    public var producer: String?
    /// When the document was created.
    public var creationDate: Date?
    /// When the document was last changed.
    public var modificationDate: Date?
    /// True when the file is encrypted, whether or not it needed a password to open.
    public var isEncrypted: Bool
    /// What the document allows; ``DocumentPermissions/all`` for unencrypted files.
    public var permissions: DocumentPermissions
    /// The first, permanent part of the file identifier (the trailer's `/ID`) in lower-case
    /// hexadecimal; nil when the file has none. It stays when the file is renamed, copied or
    /// saved incrementally.
    public var fileIdentifier: String?

    /// Facts as the engine read them.
    public init(
        pageCount: Int, pdfVersion: String, title: String? = nil, author: String? = nil,
        subject: String? = nil, keywords: String? = nil, creator: String? = nil,
        producer: String? = nil, creationDate: Date? = nil, modificationDate: Date? = nil,
        isEncrypted: Bool = false, permissions: DocumentPermissions = .all, fileIdentifier: String? = nil
    ) {
        self.pageCount = pageCount
        self.pdfVersion = pdfVersion
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
        self.creator = creator
        self.producer = producer
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.isEncrypted = isEncrypted
        self.permissions = permissions
        self.fileIdentifier = fileIdentifier
    }
}
