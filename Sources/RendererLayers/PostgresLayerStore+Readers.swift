import Foundation
import PostgresNIO
import RendererProvider

/// Readers' bookmarks and places in the tables `renderer_reader_bookmark` and
/// `renderer_reader_view`, made with the layers' tables.
extension PostgresLayerStore: ReaderStateStorage {
    package func bookmarks(for key: String) async throws -> [Bookmark] {
        try await access { client in
            let rows = try await client.query(
                "SELECT id, page, title, created FROM renderer_reader_bookmark WHERE key = \(key) ORDER BY page, created, id", logger: self.logger)
            var bookmarks: [Bookmark] = []
            for try await (id, page, title, created) in rows.decode((Int64, Int64, String, Double).self) {
                bookmarks.append(Bookmark(id: String(id), pageIndex: Int(page), title: title, creationDate: Date(timeIntervalSince1970: created)))
            }
            return bookmarks
        }
    }

    package func add(_ bookmark: Bookmark, for key: String) async throws -> Bookmark {
        try await access { client in
            let rows = try await client.query(
                """
                INSERT INTO renderer_reader_bookmark (key, page, title, created)
                VALUES (\(key), \(Int64(bookmark.pageIndex)), \(bookmark.title), \(bookmark.creationDate.timeIntervalSince1970)) RETURNING id
                """, logger: self.logger)
            var stored = bookmark
            for try await id in rows.decode(Int64.self) { stored.id = String(id) }
            return stored
        }
    }

    package func removeBookmark(id: String, for key: String) async throws -> Bool {
        guard let number = Int64(id) else { return false }
        return try await access { client in
            let rows = try await client.query(
                "DELETE FROM renderer_reader_bookmark WHERE id = \(number) AND key = \(key) RETURNING id", logger: self.logger)
            for try await _ in rows.decode(Int64.self) { return true }
            return false
        }
    }

    package func viewingState(for key: String) async throws -> ViewingState? {
        try await access { client in
            let rows = try await client.query("SELECT page, zoom, scroll_x, scroll_y FROM renderer_reader_view WHERE key = \(key)", logger: self.logger)
            for try await (page, zoom, x, y) in rows.decode((Int64, Double, Double, Double).self) {
                return ViewingState(pageIndex: Int(page), zoom: zoom, scrollOffset: PagePoint(x: x, y: y))
            }
            return nil
        }
    }

    package func setViewingState(_ state: ViewingState, for key: String) async throws {
        try await access { client in
            try await client.query(
                """
                INSERT INTO renderer_reader_view (key, page, zoom, scroll_x, scroll_y)
                VALUES (\(key), \(Int64(state.pageIndex)), \(state.zoom), \(state.scrollOffset.x), \(state.scrollOffset.y))
                ON CONFLICT (key) DO UPDATE SET page = excluded.page, zoom = excluded.zoom, scroll_x = excluded.scroll_x, scroll_y = excluded.scroll_y
                """, logger: self.logger)
        }
    }

    /// The readers' tables, made in the layers' transaction (``createTables()``).
    static let readerTables: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS renderer_reader_bookmark (
            id BIGSERIAL PRIMARY KEY, key TEXT NOT NULL, page BIGINT NOT NULL, title TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS renderer_reader_bookmark_by_key ON renderer_reader_bookmark (key)",
        """
        CREATE TABLE IF NOT EXISTS renderer_reader_view (
            key TEXT PRIMARY KEY, page BIGINT NOT NULL, zoom DOUBLE PRECISION NOT NULL, scroll_x DOUBLE PRECISION NOT NULL,
            scroll_y DOUBLE PRECISION NOT NULL)
        """,
    ]
}
