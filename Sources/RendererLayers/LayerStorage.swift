import Foundation
import RendererCollaboration
import RendererProvider
import ServiceLifecycle

/// Where a server keeps its collaboration layers: for each document and layer, its
/// annotations (the PDF's own as the base at revision 0, then every change), a revision that
/// grows by one per applied change, and the operation ids already applied, so that a change
/// sent again is answered as the first time and applied once.
///
/// Each change is applied under ``LayerRules`` in a transaction of its own that holds the
/// layer, so a batch applies what it can, writers of one layer never interleave (in one
/// process or several), and a crash loses no acknowledged change.
package protocol LayerStorage: Sendable {
    /// Whether the layer exists yet.
    func exists(_ descriptor: DocumentDescriptor) async throws -> Bool
    /// Creates the layer with `base` (the PDF's annotations) at revision 0, unless another
    /// request created it first.
    func create(_ descriptor: DocumentDescriptor, base: [Annotation]) async throws
    /// The layer's revision.
    func revision(_ descriptor: DocumentDescriptor) async throws -> Int
    /// The layer's revision and its annotations, oldest change first.
    func snapshot(_ descriptor: DocumentDescriptor) async throws -> LayerSnapshot
    /// What changed after `since`.
    func changes(_ descriptor: DocumentDescriptor, since: Int) async throws -> LayerChanges
    /// Applies one change by `user` with `permissions`, once `validate` has accepted its
    /// annotation; a change whose operation id was applied before is answered with the
    /// first answer and not applied again.
    func apply(
        _ change: LayerChange, to descriptor: DocumentDescriptor, user: String, permissions: CollaborationPermissions,
        validate: @escaping @Sendable (Annotation) throws -> Void
    ) async throws -> ChangeResult
    /// Returns once the database has answered a query; throws `ioFailure` when it cannot.
    func ping() async throws
    /// What runs while the server does (a database client, a listener for other servers'
    /// changes); none for a store that needs none.
    var services: [any Service] { get }
}

/// The error of a store asked for a layer that does not exist (the server answers 404).
package struct LayerNotFound: Error {
    /// The layer asked for.
    package let descriptor: DocumentDescriptor
    /// What the server tells the client.
    package var message: String { "there is no layer \(descriptor)" }
}

/// How the stores write an annotation (as the protocol writes JSON) and build the
/// changes after a revision from their rows.
enum LayerJSON {
    static func encode(_ annotation: Annotation) throws -> Data { try JSONEncoder.collaboration.encode(annotation) }
    static func decode(_ data: Data) throws -> Annotation { try JSONDecoder.collaboration.decode(Annotation.self, from: data) }

    /// An annotation row as the stores read it for ``LayerStorage/changes(_:since:)``.
    typealias Row = (id: String, json: Data, created: Int, revision: Int, deleted: Bool)

    /// The changes after `since` from the rows changed after it: added (created after it and
    /// still there), updated (there before, changed since) and deleted (there before).
    static func changes(since: Int, revision: Int, _ rows: [Row]) throws -> LayerChanges {
        var changes = LayerChanges(revision: revision, added: [], updated: [], deleted: [])
        for row in rows {
            if row.deleted {
                if row.created <= since { changes.deleted.append(row.id) }
            } else {
                let stored = StoredAnnotation(annotation: try decode(row.json), revision: row.revision)
                if row.created > since { changes.added.append(stored) } else { changes.updated.append(stored) }
            }
        }
        return changes
    }
}
