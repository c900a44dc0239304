import Foundation
import GRDB
import RendererProvider

/// A reader's local state in one SQLite database, by document fingerprint: bookmarks, the
/// last page viewed and the viewing state a session closed with. Safe to share between
/// threads (GRDB's `DatabaseQueue` serialises access); several processes may use one file.
public final class SQLiteStateStore: BookmarkStore {
    private let database: DatabaseQueue

    /// The store at `path`, created with its tables (and its directory) when missing;
    /// `ioFailure` when it cannot be opened.
    public init(path: String) throws {
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            database = try DatabaseQueue(path: path)
            try Self.migrate(database)
        } catch {
            throw RendererError(.ioFailure, "cannot open the bookmark database \(path): \(error)")
        }
    }

    /// A store in memory, gone with the process.
    public init() throws {
        do {
            database = try DatabaseQueue()
            try Self.migrate(database)
        } catch {
            throw RendererError(.ioFailure, "cannot make a bookmark database in memory: \(error)")
        }
    }

    /// Creates the tables, or brings them up to date.
    private static func migrate(_ database: DatabaseQueue) throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("bookmarks") { db in
            try db.create(table: "bookmark") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("fingerprint", .text).notNull().indexed()
                t.column("pageIndex", .integer).notNull()
                t.column("title", .text).notNull()
                t.column("creationDate", .datetime).notNull()
            }
            try db.create(table: "lastViewed") { t in
                t.primaryKey("fingerprint", .text)
                t.column("pageIndex", .integer).notNull()
            }
        }
        migrator.registerMigration("viewingStates") { db in
            try db.create(table: "viewingState") { t in
                t.primaryKey("fingerprint", .text)
                t.column("pageIndex", .integer).notNull()
                t.column("zoom", .double).notNull()
                t.column("scrollX", .double).notNull()
                t.column("scrollY", .double).notNull()
            }
        }
        try migrator.migrate(database)
    }

    /// The database of `application` in the XDG data directory:
    /// `$XDG_DATA_HOME/APPLICATION/bookmarks.sqlite` (default `~/.local/share/APPLICATION`).
    public static func defaultPath(application: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
        return URL(fileURLWithPath: data).appendingPathComponent("\(application)/bookmarks.sqlite").path
    }

    /// The document's bookmarks, by page, then creation date, then id.
    public func bookmarks(for document: DocumentFingerprint) throws -> [Bookmark] {
        try access {
            try $0.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT id, pageIndex, title, creationDate FROM bookmark WHERE fingerprint = ? ORDER BY pageIndex, creationDate, id",
                    arguments: [document.rawValue]
                ).map { row in
                    Bookmark(id: String(row["id"] as Int64), pageIndex: row["pageIndex"], title: row["title"], creationDate: row["creationDate"])
                }
            }
        }
    }

    /// Stores the bookmark with a new id and returns it.
    public func add(_ bookmark: Bookmark, for document: DocumentFingerprint) throws -> Bookmark {
        try access {
            try $0.write { db in
                try db.execute(
                    sql: "INSERT INTO bookmark (fingerprint, pageIndex, title, creationDate) VALUES (?, ?, ?, ?)",
                    arguments: [document.rawValue, bookmark.pageIndex, bookmark.title, bookmark.creationDate])
                var stored = bookmark
                stored.id = String(db.lastInsertedRowID)
                return stored
            }
        }
    }

    /// Removes the bookmark; `invalidArgument` when the document has none with that id.
    public func removeBookmark(id: String, for document: DocumentFingerprint) throws {
        let removed = try access {
            try $0.write { db in
                try db.execute(sql: "DELETE FROM bookmark WHERE id = ? AND fingerprint = ?", arguments: [Int64(id) ?? -1, document.rawValue])
                return db.changesCount
            }
        }
        guard removed > 0 else { throw RendererError(.invalidArgument, "this document has no bookmark \(id)") }
    }

    public func lastViewedPage(for document: DocumentFingerprint) throws -> Int? {
        try access { try $0.read { try Int.fetchOne($0, sql: "SELECT pageIndex FROM lastViewed WHERE fingerprint = ?", arguments: [document.rawValue]) } }
    }

    /// Records the last page viewed.
    public func setLastViewedPage(_ pageIndex: Int, for document: DocumentFingerprint) throws {
        try access {
            try $0.write {
                try $0.execute(
                    sql: "INSERT INTO lastViewed (fingerprint, pageIndex) VALUES (?, ?) ON CONFLICT(fingerprint) DO UPDATE SET pageIndex = excluded.pageIndex",
                    arguments: [document.rawValue, pageIndex])
            }
        }
    }

    /// The viewing state a session of the document closed with; nil when none was kept.
    public func viewingState(for document: DocumentFingerprint) throws -> ViewingState? {
        try access {
            try $0.read { db in
                try Row.fetchOne(db, sql: "SELECT pageIndex, zoom, scrollX, scrollY FROM viewingState WHERE fingerprint = ?", arguments: [document.rawValue])
                    .map { ViewingState(pageIndex: $0["pageIndex"], zoom: $0["zoom"], scrollOffset: PagePoint(x: $0["scrollX"], y: $0["scrollY"])) }
            }
        }
    }

    /// Keeps the viewing state (and so the last page viewed) of the document.
    public func setViewingState(_ state: ViewingState, for document: DocumentFingerprint) throws {
        try access {
            try $0.write {
                try $0.execute(
                    sql: """
                        INSERT INTO viewingState (fingerprint, pageIndex, zoom, scrollX, scrollY) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(fingerprint) DO UPDATE SET pageIndex = excluded.pageIndex, zoom = excluded.zoom,
                        scrollX = excluded.scrollX, scrollY = excluded.scrollY
                        """,
                    arguments: [document.rawValue, state.pageIndex, state.zoom, state.scrollOffset.x, state.scrollOffset.y])
            }
        }
        try setLastViewedPage(state.pageIndex, for: document)
    }

    /// Files the bookmarks, last page and viewing state kept for `old` under `new`, for a
    /// document whose fingerprint a save changed (one without a PDF `/ID`, known by a hash
    /// of its bytes). What `new` already had is replaced.
    public func moveDocument(from old: DocumentFingerprint, to new: DocumentFingerprint) throws {
        guard old != new else { return }
        try access {
            try $0.write { db in
                try db.execute(sql: "UPDATE bookmark SET fingerprint = ? WHERE fingerprint = ?", arguments: [new.rawValue, old.rawValue])
                for table in ["lastViewed", "viewingState"] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE fingerprint = ?", arguments: [new.rawValue])
                    try db.execute(sql: "UPDATE \(table) SET fingerprint = ? WHERE fingerprint = ?", arguments: [new.rawValue, old.rawValue])
                }
            }
        }
    }

    private func access<T>(_ body: (DatabaseQueue) throws -> T) throws -> T {
        do {
            return try body(database)
        } catch let error as RendererError {
            throw error
        } catch {
            throw RendererError(.ioFailure, "the bookmark database failed: \(error)")
        }
    }
}
