#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A file a document embeds, as its file specification says: one of the document's own (the
/// `/EmbeddedFiles` name tree) or one a file-attachment annotation carries. What `pdfdetach
/// -list` lists; its bytes come from `Document.attachmentContents(at:)` and are never run.
public struct Attachment: Hashable, Sendable, Codable {
    /// Where a document holds an attachment.
    public enum Place: String, Hashable, Sendable, Codable {
        /// In the document's `/EmbeddedFiles` name tree.
        case document
        /// In a file-attachment annotation.
        case annotation
    }

    /// The file's name as the specification gives it (`/UF`, else `/F`); it may hold any
    /// characters, slashes and `..` among them: save it only through ``safeFileName``.
    public var name: String
    /// What the file is, in words (`/Desc`).
    public var description: String?
    /// Its size in bytes, as its parameters say (`/Params /Size`); nil when they do not.
    public var size: Int?
    /// When the file was made, as its parameters say (`/CreationDate`).
    public var creationDate: Date?
    /// When the file was last changed, as its parameters say (`/ModDate`).
    public var modificationDate: Date?
    /// The MD5 checksum of its bytes, as its parameters give it (`/Params /CheckSum`), in
    /// lower-case hexadecimal.
    public var checksum: String?
    /// Where the document holds it.
    public var place: Place
    /// The page of its annotation; nil for the document's own.
    public var pageIndex: Int?

    /// An attachment with the given facts.
    public init(
        name: String, description: String? = nil, size: Int? = nil, creationDate: Date? = nil, modificationDate: Date? = nil,
        checksum: String? = nil, place: Place = .document, pageIndex: Int? = nil
    ) {
        self.name = name
        self.description = description
        self.size = size
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.checksum = checksum
        self.place = place
        self.pageIndex = pageIndex
    }

    /// The name to save the file as in a folder: the last component of ``name`` (after `/`
    /// or `\`), without control and format characters (Unicode's Cc and Cf); nil when
    /// nothing usable is left (empty, `.` or `..`), so that no attachment can write outside
    /// the folder it is saved into.
    public var safeFileName: String? {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let clean = String(last.unicodeScalars.filter { ![.control, .format].contains($0.properties.generalCategory) }.map(Character.init))
        return clean.isEmpty || clean == "." || clean == ".." ? nil : clean
    }
}
