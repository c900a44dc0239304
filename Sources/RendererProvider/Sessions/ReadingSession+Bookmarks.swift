#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reader's bookmarks. The session keeps them; the host keeps them across sessions from
/// the `bookmarksChanged` event.
extension ReadingSession {
    /// The bookmarks, by page, then by creation date.
    public var bookmarks: [Bookmark] {
        get throws { try withDocument { _, state in state.bookmarks } }
    }

    /// Adds a bookmark on the page at `pageIndex` and returns it with its new identity.
    /// Throws `pageOutOfRange` for a page the document does not have.
    @discardableResult
    public func addBookmark(pageIndex: Int, title: String) throws -> Bookmark {
        try withDocument { document, state in
            try Self.requirePage(pageIndex, of: document)
            let bookmark = Bookmark(id: UUID().uuidString.lowercased(), pageIndex: pageIndex, title: title, creationDate: configuration.clock())
            state.bookmarks.append(bookmark)
            state.bookmarks.sortByPage()
            emit(.bookmarksChanged(state.bookmarks), in: state)
            return bookmark
        }
    }

    /// Removes the bookmark `id`; `invalidArgument` when there is none.
    public func removeBookmark(id: String) throws {
        try withDocument { _, state in
            guard let index = state.bookmarks.firstIndex(where: { $0.id == id }) else {
                throw RendererError(.invalidArgument, "there is no bookmark \"\(id)\"")
            }
            state.bookmarks.remove(at: index)
            emit(.bookmarksChanged(state.bookmarks), in: state)
        }
    }
}

extension [Bookmark] {
    /// Puts the bookmarks in the order a session keeps them: by page, then by creation date.
    mutating func sortByPage() {
        sort { ($0.pageIndex, $0.creationDate) < ($1.pageIndex, $1.creationDate) }
    }
}
