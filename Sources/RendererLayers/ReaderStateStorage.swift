import Foundation
import RendererProvider

/// Where a server keeps each reader's bookmarks and place in each document, by a key that
/// names the reader and the document. A server alone keeps them in its SQLite file; servers
/// sharing a PostgreSQL database (``PostgresLayerStore``) keep them there, so that a reader
/// finds them on any server.
package protocol ReaderStateStorage: Sendable {
    /// The bookmarks kept under `key`, by page, then creation date, then id.
    func bookmarks(for key: String) async throws -> [Bookmark]
    /// Keeps `bookmark` under `key` with a new id, and returns it with that id.
    func add(_ bookmark: Bookmark, for key: String) async throws -> Bookmark
    /// Removes the bookmark `id` kept under `key`; false when there is none.
    func removeBookmark(id: String, for key: String) async throws -> Bool
    /// The place kept under `key`; nil when none was kept.
    func viewingState(for key: String) async throws -> ViewingState?
    /// Keeps `state` under `key`, in place of the one kept.
    func setViewingState(_ state: ViewingState, for key: String) async throws
}
