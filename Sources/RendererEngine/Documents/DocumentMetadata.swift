#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The facts a document tells about itself in its Info dictionary and, kept the same, its
/// XMP packet: what `Document.info()` reads and what a metadata edit (`setMetadata` of the
/// RendererProviderMetadata module) writes. A nil field is absent from the document.
public struct DocumentMetadata: Hashable, Sendable, Codable {
    /// The title (`/Title`, XMP `dc:title`).
    public var title: String?
    /// The author (`/Author`, XMP `dc:creator`).
    public var author: String?
    /// The subject (`/Subject`, XMP `dc:description`).
    public var subject: String?
    /// The keywords (`/Keywords`, XMP `pdf:Keywords`).
    public var keywords: String?
    /// The application that created the original document (`/Creator`, XMP `xmp:CreatorTool`).
    public var creator: String?
    /// The application that wrote the PDF (`/Producer`, XMP `pdf:Producer`).
    public var producer: String?
    /// When the document was created (`/CreationDate`, XMP `xmp:CreateDate`).
    public var creationDate: Date?
    /// When the document was last changed (`/ModDate`, XMP `xmp:ModifyDate`).
    public var modificationDate: Date?

    /// Metadata with the given fields; the others absent.
    public init(
        title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil,
        creator: String? = nil, producer: String? = nil, creationDate: Date? = nil, modificationDate: Date? = nil
    ) {
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
        self.creator = creator
        self.producer = producer
        self.creationDate = creationDate
        self.modificationDate = modificationDate
    }
}
