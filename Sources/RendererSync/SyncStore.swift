import Foundation
import GRDB
import RendererCollaboration
import RendererProvider

/// A sync client's local copy of one layer, in one SQLite file: the layer's revision as last
/// pulled, its annotations as this reader sees them (the server's, with the reader's unsent
/// changes made on them), and the queue of those unsent changes in the order they were made.
///
/// The queue survives the process: changes made offline, or before a crash, are sent when
/// the client next runs. Each queued change keeps the operation id it was given when made,
/// so a change whose answer was lost is sent again under the same id and applied once.
///
/// A queued change not yet sent absorbs later changes of the same annotation (a modify of an
/// unsent add stays one add; a delete of an unsent add sends nothing). One already sent is
/// never altered, since the server may have applied it.
final class SyncStore: Sendable {
    private let database: DatabaseQueue

    /// How long a process waits for another that holds the store (a `sync watch` beside a
    /// `sync push`), in seconds, before its access fails.
    static let busyTimeout: TimeInterval = 30

    /// The store at `path`, created when missing; `ioFailure` when it cannot be opened.
    /// Several processes may use one store: it is in WAL mode, so readers never wait for the
    /// writer, and a writer waits up to ``busyTimeout`` for another's transaction to end.
    init(path: String) throws {
        do {
            var configuration = Configuration()
            configuration.journalMode = .wal
            configuration.busyMode = .timeout(Self.busyTimeout)
            database = try DatabaseQueue(path: path, configuration: configuration)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("layer") { db in
                try db.create(table: "layer") { t in
                    t.primaryKey("key", .integer)
                    t.column("revision", .integer).notNull()
                }
                try db.execute(sql: "INSERT INTO layer (key, revision) VALUES (1, -1)")
                // `revision`: the layer revision the server's value is from (NULL: added here, not yet applied).
                try db.create(table: "annotation") { t in
                    t.primaryKey("id", .text)
                    t.column("json", .blob).notNull()
                    t.column("revision", .integer)
                }
                try db.create(table: "pending") { t in
                    t.autoIncrementedPrimaryKey("seq")
                    t.column("operation", .text).notNull().unique()
                    t.column("action", .text).notNull()
                    t.column("annotation", .text).notNull()
                    t.column("json", .blob)
                    t.column("sent", .boolean).notNull().defaults(to: false)
                    t.column("base", .integer)
                }
            }
            try migrator.migrate(database)
        } catch {
            throw RendererError(.ioFailure, "cannot open the sync store \(path): \(error)")
        }
    }

    /// The layer's revision as last pulled; -1 before the first pull.
    func revision() throws -> Int {
        try access { try $0.read { db in try Int.fetchOne(db, sql: "SELECT revision FROM layer") ?? -1 } }
    }

    /// The annotations as this reader sees them, each with the revision of the server's
    /// value it holds (nil: added here and not yet applied).
    func annotations() throws -> [(annotation: Annotation, revision: Int?)] {
        try access {
            try $0.read { db in
                try Row.fetchAll(db, sql: "SELECT json, revision FROM annotation ORDER BY revision IS NULL, revision, id").map {
                    (try Self.decode($0["json"]), $0["revision"])
                }
            }
        }
    }

    /// How many changes wait to be sent.
    func pendingCount() throws -> Int {
        try access { try $0.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending") ?? 0 } }
    }

    /// Replaces the whole layer with `snapshot` (a first open, or a layer to start over
    /// from); the queue is kept.
    func replace(with snapshot: LayerSnapshot) throws {
        try access {
            try $0.write { db in
                try db.execute(sql: "DELETE FROM annotation WHERE revision IS NOT NULL")
                for stored in snapshot.annotations {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO annotation (id, json, revision) VALUES (?, ?, ?)",
                        arguments: [stored.annotation.id, try Self.encode(stored.annotation), stored.revision])
                }
                try db.execute(sql: "UPDATE layer SET revision = ?", arguments: [snapshot.revision])
            }
        }
    }

    /// Queues the changes the reader made, each with a new operation id, and applies them
    /// to the local annotations.
    func recordLocal(_ changes: AnnotationChanges) throws {
        try access {
            try $0.write { db in
                for annotation in changes.added {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO annotation (id, json, revision) VALUES (?, ?, NULL)",
                        arguments: [annotation.id, try Self.encode(annotation)])
                    try Self.enqueue(.add, annotation.id, annotation, db)
                }
                for annotation in changes.modified {
                    try db.execute(sql: "UPDATE annotation SET json = ? WHERE id = ?", arguments: [try Self.encode(annotation), annotation.id])
                    // An unsent add or modify of it takes the new value.
                    let absorbed = try Int64.fetchOne(
                        db, sql: "SELECT seq FROM pending WHERE annotation = ? AND sent = 0 AND action IN ('add', 'modify') ORDER BY seq DESC LIMIT 1",
                        arguments: [annotation.id])
                    if let absorbed {
                        try db.execute(sql: "UPDATE pending SET json = ? WHERE seq = ?", arguments: [try Self.encode(annotation), absorbed])
                    } else {
                        try Self.enqueue(.modify, annotation.id, annotation, db)
                    }
                }
                for annotation in changes.removed {
                    try db.execute(sql: "DELETE FROM annotation WHERE id = ?", arguments: [annotation.id])
                    let unsentAdd = try Int64.fetchOne(
                        db, sql: "SELECT seq FROM pending WHERE annotation = ? AND sent = 0 AND action = 'add'", arguments: [annotation.id])
                    try db.execute(sql: "DELETE FROM pending WHERE annotation = ? AND sent = 0", arguments: [annotation.id])
                    // An annotation the server never had needs no delete.
                    if unsentAdd == nil { try Self.enqueue(.delete, annotation.id, nil, db) }
                }
            }
        }
    }

    /// The next changes to send, oldest first, at most `limit`, marked as sent. A modify is
    /// made on the revision of the server's value the store holds when it is first sent
    /// (and sent again on that same revision); a modify of an annotation whose add has no
    /// answer yet ends the batch, to wait for that answer.
    func nextBatch(limit: Int) throws -> [LayerChange] {
        try access {
            try $0.write { db in
                var batch: [LayerChange] = []
                let rows = try Row.fetchAll(
                    db, sql: "SELECT operation, action, annotation, json, base FROM pending ORDER BY seq LIMIT ?", arguments: [limit])
                for row in rows {
                    guard let change = try Self.change(row, db) else { break }
                    try db.execute(
                        sql: "UPDATE pending SET sent = 1, base = ? WHERE operation = ?", arguments: [change.baseRevision, change.operationID])
                    batch.append(change)
                }
                return batch
            }
        }
    }

    /// What the server answered for a batch: each answered change leaves the queue. An
    /// applied one stores the server's value (unless the reader changed the annotation
    /// again since); a rejected one is a ``SyncConflict``, after which the store holds the
    /// server's current value and drops the reader's later unsent changes of the same
    /// annotation (listed in the conflict). Returns the conflicts, and what the reader's
    /// document must change to show the server's values again.
    func complete(_ batch: [LayerChange], results: [ChangeResult]) throws -> (conflicts: [SyncConflict], corrections: AnnotationChanges) {
        try access {
            try $0.write { db in
                var conflicts: [SyncConflict] = []
                var corrections = AnnotationChanges(isRemote: true)
                for (change, result) in zip(batch, results) where change.operationID == result.operationID {
                    try db.execute(sql: "DELETE FROM pending WHERE operation = ?", arguments: [change.operationID])
                    let id = change.annotationID ?? change.annotation?.id ?? ""
                    if result.status == .applied {
                        guard let stored = result.annotation else { continue }
                        let changedAgain = try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM pending WHERE annotation = ?", arguments: [id]) ?? false
                        if change.action == .delete {
                            continue
                        } else if changedAgain {
                            try db.execute(sql: "UPDATE annotation SET revision = ? WHERE id = ?", arguments: [stored.revision, id])
                        } else {
                            try db.execute(
                                sql: "INSERT OR REPLACE INTO annotation (id, json, revision) VALUES (?, ?, ?)",
                                arguments: [id, try Self.encode(stored.annotation), stored.revision])
                        }
                        continue
                    }
                    // Rejected: back to the server's value, the reader's later changes of it dropped and reported.
                    let later = try Row.fetchAll(db, sql: "SELECT action, json FROM pending WHERE annotation = ? ORDER BY seq", arguments: [id])
                    try db.execute(sql: "DELETE FROM pending WHERE annotation = ?", arguments: [id])
                    let held = try Row.fetchOne(db, sql: "SELECT json FROM annotation WHERE id = ?", arguments: [id]).map { try Self.decode($0["json"]) }
                    if let current = result.current {
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO annotation (id, json, revision) VALUES (?, ?, ?)",
                            arguments: [id, try Self.encode(current.annotation), current.revision])
                        if held == nil { corrections.added.append(current.annotation) } else { corrections.modified.append(current.annotation) }
                    } else if let held {
                        try db.execute(sql: "DELETE FROM annotation WHERE id = ?", arguments: [id])
                        corrections.removed.append(held)
                    }
                    conflicts.append(SyncConflict(change: change, result: result, dropped: try later.map {
                        LayerChange(operationID: "", action: LayerChange.Action(rawValue: $0["action"]) ?? .delete,
                                    annotation: try ($0["json"] as Data?).map(Self.decode), annotationID: id)
                    }))
                }
                return (conflicts, corrections)
            }
        }
    }

    /// Takes in what changed on the server after the store's revision. An annotation with
    /// unsent changes of the reader keeps them (the server decides when they arrive); an
    /// annotation already at the incoming revision or later is left alone (the reader's own
    /// change coming back). Returns what the reader's document must change.
    func applyRemote(_ changes: LayerChanges) throws -> AnnotationChanges {
        try access {
            try $0.write { db in
                var applied = AnnotationChanges(isRemote: true)
                for stored in changes.added + changes.updated {
                    let id = stored.annotation.id
                    if try Self.hasPending(id, db) { continue }
                    let held = try Row.fetchOne(db, sql: "SELECT revision FROM annotation WHERE id = ?", arguments: [id])
                    if let held, let revision = held["revision"] as Int?, revision >= stored.revision { continue }
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO annotation (id, json, revision) VALUES (?, ?, ?)",
                        arguments: [id, try Self.encode(stored.annotation), stored.revision])
                    if held == nil { applied.added.append(stored.annotation) } else { applied.modified.append(stored.annotation) }
                }
                for id in changes.deleted {
                    if try Self.hasPending(id, db) { continue }
                    guard let row = try Row.fetchOne(db, sql: "SELECT json FROM annotation WHERE id = ?", arguments: [id]) else { continue }
                    try db.execute(sql: "DELETE FROM annotation WHERE id = ?", arguments: [id])
                    applied.removed.append(try Self.decode(row["json"]))
                }
                try db.execute(sql: "UPDATE layer SET revision = MAX(revision, ?)", arguments: [changes.revision])
                return applied
            }
        }
    }

    /// The change a queued row sends; nil for a modify with no revision to make it on yet.
    private static func change(_ row: Row, _ db: Database) throws -> LayerChange? {
        let id: String = row["annotation"]
        var change = LayerChange(operationID: row["operation"], action: LayerChange.Action(rawValue: row["action"]) ?? .delete)
        switch change.action {
        case .add:
            change.annotation = try decode(row["json"])
        case .modify:
            let held = try Int.fetchOne(db, sql: "SELECT revision FROM annotation WHERE id = ?", arguments: [id])
            guard let base = row["base"] as Int? ?? held else { return nil }
            change.annotation = try decode(row["json"])
            change.baseRevision = base
        case .delete:
            change.annotationID = id
        }
        return change
    }

    private static func enqueue(_ action: LayerChange.Action, _ id: String, _ annotation: Annotation?, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO pending (operation, action, annotation, json) VALUES (?, ?, ?, ?)",
            arguments: [UUID().uuidString.lowercased(), action.rawValue, id, try annotation.map(encode)])
    }

    private static func hasPending(_ id: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM pending WHERE annotation = ?", arguments: [id]) ?? false
    }

    private static func encode(_ annotation: Annotation) throws -> Data { try JSONEncoder.collaboration.encode(annotation) }
    private static func decode(_ data: Data) throws -> Annotation { try JSONDecoder.collaboration.decode(Annotation.self, from: data) }

    /// Runs `body`, turning database errors into `ioFailure`.
    private func access<T>(_ body: (DatabaseQueue) throws -> T) throws -> T {
        do {
            return try body(database)
        } catch let error as RendererError {
            throw error
        } catch {
            throw RendererError(.ioFailure, "the sync store failed: \(error)")
        }
    }
}
