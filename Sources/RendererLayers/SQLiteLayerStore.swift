import Foundation
import GRDB
import RendererCollaboration
import RendererProvider
import ServiceLifecycle

/// The collaboration layers in one SQLite database, for one server process. GRDB's
/// `DatabaseQueue` serialises the writers on its own queue (every access is GRDB's async
/// one, so no event loop or task of the cooperative pool waits on the disk); each change
/// is a transaction of its own.
package final class SQLiteLayerStore: LayerStorage {
    private let database: DatabaseQueue

    /// The store at `path`, created with its tables when missing; `ioFailure` when it
    /// cannot be opened.
    package init(path: String) throws {
        do {
            database = try DatabaseQueue(path: path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("layers") { db in
                try db.create(table: "layer") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("document", .text).notNull()
                    t.column("name", .text).notNull()
                    t.column("revision", .integer).notNull()
                    t.uniqueKey(["document", "name"])
                }
                try db.create(table: "annotation") { t in
                    t.column("layer", .integer).notNull().references("layer")
                    t.column("id", .text).notNull()
                    t.column("author", .text)
                    t.column("json", .blob).notNull()
                    t.column("created", .integer).notNull()
                    t.column("revision", .integer).notNull()
                    t.column("deleted", .boolean).notNull().defaults(to: false)
                    t.primaryKey(["layer", "id"])
                }
                try db.create(index: "annotation_by_revision", on: "annotation", columns: ["layer", "revision"])
                try db.create(table: "operation") { t in
                    t.column("layer", .integer).notNull().references("layer")
                    t.column("id", .text).notNull()
                    t.column("result", .blob).notNull()
                    t.primaryKey(["layer", "id"])
                }
            }
            try migrator.migrate(database)
        } catch {
            throw RendererError(.ioFailure, "cannot open the collaboration database \(path): \(error)")
        }
    }

    package var services: [any Service] { [] }

    package func ping() async throws {
        try await access { try await $0.read { db in _ = try Int.fetchOne(db, sql: "SELECT 1") } }
    }

    package func exists(_ descriptor: DocumentDescriptor) async throws -> Bool {
        try await access { try await $0.read { db in try Self.layerID(descriptor, db) != nil } }
    }

    package func create(_ descriptor: DocumentDescriptor, base: [Annotation]) async throws {
        try await access {
            try await $0.write { db in
                guard try Self.layerID(descriptor, db) == nil else { return }
                try db.execute(
                    sql: "INSERT INTO layer (document, name, revision) VALUES (?, ?, 0)", arguments: [descriptor.documentID, descriptor.layer])
                let layer = db.lastInsertedRowID
                for annotation in base {
                    try db.execute(
                        sql: "INSERT OR IGNORE INTO annotation (layer, id, author, json, created, revision) VALUES (?, ?, ?, ?, 0, 0)",
                        arguments: [layer, annotation.id, annotation.author, try LayerJSON.encode(annotation)])
                }
            }
        }
    }

    package func revision(_ descriptor: DocumentDescriptor) async throws -> Int {
        try await access { try await $0.read { db in try Self.layer(descriptor, db).revision } }
    }

    package func snapshot(_ descriptor: DocumentDescriptor) async throws -> LayerSnapshot {
        try await access {
            try await $0.read { db in
                let (layer, revision) = try Self.layer(descriptor, db)
                let rows = try Row.fetchAll(
                    db, sql: "SELECT json, revision FROM annotation WHERE layer = ? AND deleted = 0 ORDER BY revision, id", arguments: [layer])
                return LayerSnapshot(
                    revision: revision, annotations: try rows.map { StoredAnnotation(annotation: try LayerJSON.decode($0["json"]), revision: $0["revision"]) })
            }
        }
    }

    package func changes(_ descriptor: DocumentDescriptor, since: Int) async throws -> LayerChanges {
        try await access {
            try await $0.read { db in
                let (layer, revision) = try Self.layer(descriptor, db)
                let rows = try Row.fetchAll(
                    db, sql: "SELECT id, json, created, revision, deleted FROM annotation WHERE layer = ? AND revision > ? ORDER BY revision, id",
                    arguments: [layer, since])
                return try LayerJSON.changes(
                    since: since, revision: revision,
                    rows.map { (id: $0["id"], json: $0["json"], created: $0["created"], revision: $0["revision"], deleted: $0["deleted"]) })
            }
        }
    }

    package func apply(
        _ change: LayerChange, to descriptor: DocumentDescriptor, user: String, permissions: CollaborationPermissions,
        validate: @escaping @Sendable (Annotation) throws -> Void
    ) async throws -> ChangeResult {
        try await access {
            try await $0.write { db in
                let (layer, revision) = try Self.layer(descriptor, db)
                if let replay = try Data.fetchOne(
                    db, sql: "SELECT result FROM operation WHERE layer = ? AND id = ?", arguments: [layer, change.operationID]) {
                    return try JSONDecoder.collaboration.decode(ChangeResult.self, from: replay)
                }
                var change = change
                let id = LayerRules.target(of: &change)
                let held = try Self.held(id, layer, db)
                let root = try LayerRules.root(of: change).flatMap { try Self.held($0, layer, db) }
                let replies = change.action == .delete ? LayerRules.replies(to: id, among: try Self.live(layer, db)) : []
                let (result, write) = LayerRules.decide(
                    change, revision: revision, held: held, root: root, replies: replies, user: user, permissions: permissions,
                    validate: validate)
                let next = revision + 1
                switch write {
                case .insert(let annotation):
                    try db.execute(
                        sql: "INSERT INTO annotation (layer, id, author, json, created, revision) VALUES (?, ?, ?, ?, ?, ?)",
                        arguments: [layer, annotation.id, annotation.author, try LayerJSON.encode(annotation), next, next])
                case .update(let annotation):
                    try db.execute(
                        sql: "UPDATE annotation SET json = ?, revision = ? WHERE layer = ? AND id = ?",
                        arguments: [try LayerJSON.encode(annotation), next, layer, annotation.id])
                case .delete(let ids):
                    for id in ids {
                        try db.execute(sql: "UPDATE annotation SET deleted = 1, revision = ? WHERE layer = ? AND id = ?", arguments: [next, layer, id])
                    }
                case nil:
                    break
                }
                // Only applied changes are kept for replay: a refused one is decided again when it
                // comes again, so a client without rights cannot fill the table.
                guard write != nil else { return result }
                try db.execute(sql: "UPDATE layer SET revision = ? WHERE id = ?", arguments: [next, layer])
                try db.execute(
                    sql: "INSERT INTO operation (layer, id, result) VALUES (?, ?, ?)",
                    arguments: [layer, change.operationID, try JSONEncoder.collaboration.encode(result)])
                return result
            }
        }
    }

    private static func held(_ id: String, _ layer: Int64, _ db: Database) throws -> LayerRules.Held? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT json, created, revision, deleted FROM annotation WHERE layer = ? AND id = ?", arguments: [layer, id])
        else { return nil }
        return try held(row)
    }

    /// The layer's annotations that are not deleted.
    private static func live(_ layer: Int64, _ db: Database) throws -> [LayerRules.Held] {
        try Row.fetchAll(db, sql: "SELECT json, created, revision, deleted FROM annotation WHERE layer = ? AND deleted = 0", arguments: [layer])
            .map(held)
    }

    private static func held(_ row: Row) throws -> LayerRules.Held {
        (StoredAnnotation(annotation: try LayerJSON.decode(row["json"]), revision: row["revision"]), row["created"], row["deleted"])
    }

    private static func layerID(_ descriptor: DocumentDescriptor, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM layer WHERE document = ? AND name = ?", arguments: [descriptor.documentID, descriptor.layer])
    }

    private static func layer(_ descriptor: DocumentDescriptor, _ db: Database) throws -> (id: Int64, revision: Int) {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT id, revision FROM layer WHERE document = ? AND name = ?", arguments: [descriptor.documentID, descriptor.layer])
        else { throw LayerNotFound(descriptor: descriptor) }
        return (row["id"], row["revision"])
    }

    /// Runs `body`, turning database errors into `ioFailure`.
    private func access<T>(_ body: (DatabaseQueue) async throws -> T) async throws -> T {
        do {
            return try await body(database)
        } catch let error as RendererError {
            throw error
        } catch let error as LayerNotFound {
            throw error
        } catch {
            throw RendererError(.ioFailure, "the collaboration database failed: \(error)")
        }
    }
}
