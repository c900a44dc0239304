import Foundation
import GRDB
import RendererCollaboration
import RendererProvider

/// The collaboration layers in one SQLite database: for each document and layer, its
/// annotations (the PDF's own as the base at revision 0, then every change), a revision
/// that grows by one per applied change, and the operation ids already applied (so a change
/// sent again is answered as the first time and applied once).
///
/// Each change is applied in a transaction of its own, so a batch applies what it can and a
/// crash loses no acknowledged change. GRDB's `DatabaseQueue` serialises the writers.
final class LayerStore: Sendable {
    private let database: DatabaseQueue

    /// The store at `path`, created with its tables when missing; `ioFailure` when it
    /// cannot be opened.
    init(path: String) throws {
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

    /// Whether the layer exists yet.
    func exists(_ descriptor: DocumentDescriptor) throws -> Bool {
        try access { try $0.read { db in try Self.layerID(descriptor, db) != nil } }
    }

    /// Creates the layer with `base` (the PDF's annotations) at revision 0, unless another
    /// request created it first.
    func create(_ descriptor: DocumentDescriptor, base: [Annotation]) throws {
        try access {
            try $0.write { db in
                guard try Self.layerID(descriptor, db) == nil else { return }
                try db.execute(
                    sql: "INSERT INTO layer (document, name, revision) VALUES (?, ?, 0)", arguments: [descriptor.documentID, descriptor.layer])
                let layer = db.lastInsertedRowID
                for annotation in base {
                    try db.execute(
                        sql: "INSERT OR IGNORE INTO annotation (layer, id, author, json, created, revision) VALUES (?, ?, ?, ?, 0, 0)",
                        arguments: [layer, annotation.id, annotation.author, try Self.encode(annotation)])
                }
            }
        }
    }

    /// The layer's revision and its annotations, oldest change first.
    func snapshot(_ descriptor: DocumentDescriptor) throws -> (revision: Int, annotations: [StoredAnnotation]) {
        try access {
            try $0.read { db in
                let (layer, revision) = try Self.layer(descriptor, db)
                let rows = try Row.fetchAll(
                    db, sql: "SELECT json, revision FROM annotation WHERE layer = ? AND deleted = 0 ORDER BY revision, id", arguments: [layer])
                return (revision, try rows.map { StoredAnnotation(annotation: try Self.decode($0["json"]), revision: $0["revision"]) })
            }
        }
    }

    /// What changed after `since`.
    func changes(_ descriptor: DocumentDescriptor, since: Int) throws -> LayerChanges {
        try access {
            try $0.read { db in
                let (layer, revision) = try Self.layer(descriptor, db)
                var changes = LayerChanges(revision: revision, added: [], updated: [], deleted: [])
                let rows = try Row.fetchAll(
                    db, sql: "SELECT id, json, created, revision, deleted FROM annotation WHERE layer = ? AND revision > ? ORDER BY revision, id",
                    arguments: [layer, since])
                for row in rows {
                    let created: Int = row["created"]
                    if row["deleted"] as Bool {
                        if created <= since { changes.deleted.append(row["id"]) }
                    } else {
                        let stored = StoredAnnotation(annotation: try Self.decode(row["json"]), revision: row["revision"])
                        if created > since { changes.added.append(stored) } else { changes.updated.append(stored) }
                    }
                }
                return changes
            }
        }
    }

    /// Applies one change by `user` with `permissions`, in a transaction of its own, after
    /// `validate` has accepted its annotation; a change whose operation id was applied
    /// before is answered with the first answer and not applied again.
    func apply(
        _ change: LayerChange, to descriptor: DocumentDescriptor, user: String, permissions: CollaborationPermissions,
        validate: (Annotation) throws -> Void
    ) throws -> ChangeResult {
        try access {
            try $0.write { db in
                let (layer, revision) = try Self.layer(descriptor, db)
                if let replay = try Data.fetchOne(
                    db, sql: "SELECT result FROM operation WHERE layer = ? AND id = ?", arguments: [layer, change.operationID]) {
                    return try JSONDecoder.iso8601.decode(ChangeResult.self, from: replay)
                }
                let result = try Self.decide(change, layer: layer, revision: revision, user: user, permissions: permissions, validate: validate, db)
                if result.status == .applied {
                    try db.execute(sql: "UPDATE layer SET revision = ? WHERE id = ?", arguments: [result.revision, layer])
                }
                try db.execute(
                    sql: "INSERT INTO operation (layer, id, result) VALUES (?, ?, ?)",
                    arguments: [layer, change.operationID, try JSONEncoder.iso8601.encode(result)])
                return result
            }
        }
    }

    /// The rules of one change (the README's Collaboration section states them).
    private static func decide(
        _ change: LayerChange, layer: Int64, revision: Int, user: String, permissions: CollaborationPermissions,
        validate: (Annotation) throws -> Void, _ db: Database
    ) throws -> ChangeResult {
        let operation = change.operationID
        let next = revision + 1
        func reject(_ reason: ChangeResult.Reason, _ message: String, current: StoredAnnotation? = nil) -> ChangeResult {
            .rejected(operation, reason, message, current: current)
        }
        switch change.action {
        case .add:
            guard permissions.canAnnotate else { return reject(.notPermitted, "user \(user) may not add annotations") }
            guard var annotation = change.annotation else { return reject(.invalid, "an add needs an annotation") }
            do { try validate(annotation) } catch let error as RendererError { return reject(.invalid, error.message) }
            if annotation.id.isEmpty { annotation.id = UUID().uuidString.lowercased() }
            if let existing = try stored(annotation.id, layer, db) {
                return reject(.exists, "annotation \"\(annotation.id)\" is already in the layer", current: existing.deleted ? nil : existing.value)
            }
            annotation.author = user
            try db.execute(
                sql: "INSERT INTO annotation (layer, id, author, json, created, revision) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [layer, annotation.id, user, try encode(annotation), next, next])
            return .applied(operation, revision: next, annotation: StoredAnnotation(annotation: annotation, revision: next))
        case .modify:
            guard var annotation = change.annotation else { return reject(.invalid, "a modify needs the annotation as modified") }
            guard let existing = try stored(annotation.id, layer, db) else {
                return reject(.notFound, "there is no annotation \"\(annotation.id)\" in the layer")
            }
            guard !existing.deleted else { return reject(.deleted, "annotation \"\(annotation.id)\" was deleted") }
            guard permissions.mayModify(existing.value.annotation, as: user) else {
                return reject(.notPermitted, "annotation \"\(annotation.id)\" is not user \(user)'s to change", current: existing.value)
            }
            guard let base = change.baseRevision, base >= existing.value.revision else {
                return reject(
                    .conflict, "annotation \"\(annotation.id)\" changed at revision \(existing.value.revision), after the change's base",
                    current: existing.value)
            }
            do { try validate(annotation) } catch let error as RendererError { return reject(.invalid, error.message) }
            annotation.author = existing.value.annotation.author
            try db.execute(
                sql: "UPDATE annotation SET json = ?, revision = ? WHERE layer = ? AND id = ?",
                arguments: [try encode(annotation), next, layer, annotation.id])
            return .applied(operation, revision: next, annotation: StoredAnnotation(annotation: annotation, revision: next))
        case .delete:
            guard let id = change.annotationID ?? change.annotation?.id else { return reject(.invalid, "a delete needs the annotation's id") }
            guard let existing = try stored(id, layer, db) else { return reject(.notFound, "there is no annotation \"\(id)\" in the layer") }
            guard !existing.deleted else { return reject(.deleted, "annotation \"\(id)\" was already deleted") }
            guard permissions.mayRemove(existing.value.annotation, as: user) else {
                return reject(.notPermitted, "annotation \"\(id)\" is not user \(user)'s to delete", current: existing.value)
            }
            // A delete wins over a concurrent modify: it applies whatever revision it was made on.
            try db.execute(sql: "UPDATE annotation SET deleted = 1, revision = ? WHERE layer = ? AND id = ?", arguments: [next, layer, id])
            return .applied(operation, revision: next, annotation: StoredAnnotation(annotation: existing.value.annotation, revision: next))
        }
    }

    private static func stored(_ id: String, _ layer: Int64, _ db: Database) throws -> (value: StoredAnnotation, deleted: Bool)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT json, revision, deleted FROM annotation WHERE layer = ? AND id = ?", arguments: [layer, id])
        else { return nil }
        return (StoredAnnotation(annotation: try decode(row["json"]), revision: row["revision"]), row["deleted"])
    }

    private static func layerID(_ descriptor: DocumentDescriptor, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM layer WHERE document = ? AND name = ?", arguments: [descriptor.documentID, descriptor.layer])
    }

    private static func layer(_ descriptor: DocumentDescriptor, _ db: Database) throws -> (id: Int64, revision: Int) {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT id, revision FROM layer WHERE document = ? AND name = ?", arguments: [descriptor.documentID, descriptor.layer])
        else { throw APIError.notFound("there is no layer \(descriptor)") }
        return (row["id"], row["revision"])
    }

    private static func encode(_ annotation: Annotation) throws -> Data { try JSONEncoder.iso8601.encode(annotation) }
    private static func decode(_ data: Data) throws -> Annotation { try JSONDecoder.iso8601.decode(Annotation.self, from: data) }

    /// Runs `body`, turning database errors into `ioFailure`.
    private func access<T>(_ body: (DatabaseQueue) throws -> T) throws -> T {
        do {
            return try body(database)
        } catch let error as RendererError {
            throw error
        } catch let error as APIError {
            throw error
        } catch {
            throw RendererError(.ioFailure, "the collaboration database failed: \(error)")
        }
    }
}

extension JSONEncoder {
    /// Sorted keys, ISO 8601 dates: how the store writes JSON.
    static var iso8601: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONDecoder {
    /// ISO 8601 dates: how the store reads JSON.
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
