#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A user's bookmark: a page of a document they want to come back to. Unlike the outline,
/// bookmarks belong to the user, not the file; a ``BookmarkStore`` keeps them by the
/// document's ``DocumentFingerprint``.
public struct Bookmark: Hashable, Sendable, Codable, Identifiable {
    /// The store's identity for the bookmark; empty until it is stored.
    public var id: String
    /// The 0-based index of the page.
    public var pageIndex: Int
    /// The bookmark's title.
    public var title: String
    /// When the bookmark was made.
    public var creationDate: Date

    /// A bookmark of the page at `pageIndex`; the store gives it an `id` if it has none.
    public init(id: String = "", pageIndex: Int, title: String, creationDate: Date = Date()) {
        self.id = id
        self.pageIndex = pageIndex
        self.title = title
        self.creationDate = creationDate
    }
}

/// What identifies a document wherever its file is: the first part of its PDF `/ID`
/// (which renaming, copying and incremental saves keep), else a hash of its bytes.
public struct DocumentFingerprint: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The fingerprint of a file identifier (see `DocumentInfo.fileIdentifier`).
    public static func fileIdentifier(_ hex: String) -> DocumentFingerprint {
        DocumentFingerprint(rawValue: "id:\(hex.lowercased())")
    }

    /// The fingerprint of a content hash, named by its algorithm (such as `sha256`).
    public static func contentHash(_ hex: String, algorithm: String) -> DocumentFingerprint {
        DocumentFingerprint(rawValue: "\(algorithm):\(hex.lowercased())")
    }

    public var description: String { rawValue }
}

/// Keeps users' bookmarks and the last page they viewed, per document.
///
/// ### Implementation requirements
/// - Bookmarks of one fingerprint are returned by page, then by creation date.
/// - ``add(_:for:)`` gives the bookmark a unique `id` and returns it as stored.
/// - ``removeBookmark(id:for:)`` throws `invalidArgument` for an unknown id.
/// - Failures to read or write the store throw `ioFailure`.
public protocol BookmarkStore: Sendable {
    /// The document's bookmarks, by page, then by creation date.
    func bookmarks(for document: DocumentFingerprint) throws -> [Bookmark]
    /// Stores a bookmark and returns it with its identity.
    func add(_ bookmark: Bookmark, for document: DocumentFingerprint) throws -> Bookmark
    /// Removes a bookmark; `invalidArgument` when the document has none with that id.
    func removeBookmark(id: String, for document: DocumentFingerprint) throws
    /// The 0-based index of the last page viewed, nil when none was recorded.
    func lastViewedPage(for document: DocumentFingerprint) throws -> Int?
    /// Records the last page viewed.
    func setLastViewedPage(_ pageIndex: Int, for document: DocumentFingerprint) throws
}
