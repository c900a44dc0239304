import Foundation
import RendererCollaboration
import RendererProvider

/// The rules of one change to a layer, apart from the database that keeps the layer
/// (docs/collaboration.md states them): from the change, the layer's revision and
/// the annotation the change names as stored, what to answer and what to write. Both stores
/// apply them the same way, inside a transaction that holds the layer.
enum LayerRules {
    /// What a store writes for an applied change, at the layer's next revision.
    enum Write {
        /// A new annotation, created at that revision.
        case insert(Annotation)
        /// The annotation's new value.
        case update(Annotation)
        /// These annotations are deleted: the one named and its thread's replies.
        case delete([String])
    }

    /// The annotation as a layer holds it: its value, the revision that created it (0 for the
    /// PDF's own annotations, the layer's base) and whether it was deleted.
    typealias Held = (value: StoredAnnotation, created: Int, deleted: Bool)

    /// The identity of the annotation `change` works on, the one the rights are checked on and
    /// the write uses: `annotationID`, else the annotation's `id` (a new one for an add
    /// without either). The change is given both, so that a change naming two different
    /// identities is left for ``decide`` to reject.
    static func target(of change: inout LayerChange) -> String {
        if change.action == .add, change.annotationID == nil, change.annotation?.id.isEmpty == true {
            change.annotation?.id = UUID().uuidString.lowercased()
        }
        if let id = change.annotationID, change.annotation?.id.isEmpty == true { change.annotation?.id = id }
        if change.annotationID == nil { change.annotationID = change.annotation?.id }
        return change.annotationID ?? ""
    }

    /// The identity of the annotation that `change`'s annotation answers
    /// (``Annotation/inReplyTo``), whose held value ``decide`` checks; nil for a delete or an
    /// annotation that answers none.
    static func root(of change: LayerChange) -> String? {
        change.action == .delete ? nil : change.annotation?.inReplyTo
    }

    /// The replies of the thread of `id` among the layer's `live` annotations (held and not
    /// deleted), replies to replies too: what a delete of `id` deletes with it.
    static func replies(to id: String, among live: [Held]) -> [Held] {
        let replies = Set(live.map(\.value.annotation).replies(to: id).map(\.id))
        return live.filter { replies.contains($0.value.annotation.id) }
    }

    /// The answer to `change` by `user` and what to write when it applies. `held` is the
    /// annotation the change works on, `root` the one its annotation answers (``root(of:)``)
    /// and, for a delete, `replies` its thread's replies (``replies(to:among:)``), as stored;
    /// `validate` checks an annotation's geometry and sizes (a `RendererError` rejects the
    /// change). A reply answers an annotation of its page that the layer still holds, and
    /// takes only the right to annotate, as any add; deleting an annotation deletes its thread,
    /// and needs the right to delete each of its replies too (as a session's removal does).
    static func decide(
        _ change: LayerChange, revision: Int, held: Held?, root: Held?, replies: [Held], user: String,
        permissions: CollaborationPermissions, validate: (Annotation) throws -> Void
    ) -> (result: ChangeResult, write: Write?) {
        let operation = change.operationID
        let next = revision + 1
        func reject(_ reason: ChangeResult.Reason, _ message: String, current: StoredAnnotation? = nil) -> (ChangeResult, Write?) {
            (.rejected(operation, reason, message, current: current), nil)
        }
        func valid(_ annotation: Annotation) -> String? {
            do { try validate(annotation) } catch let error as RendererError { return error.message } catch { return "\(error)" }
            guard let rootID = annotation.inReplyTo else { return nil }
            guard rootID != annotation.id, let root, !root.deleted, root.value.annotation.pageIndex == annotation.pageIndex else {
                return "an annotation answers another of its page in the layer, not \"\(rootID.prefix(200))\""
            }
            return nil
        }
        func applied(_ annotation: Annotation, _ write: Write) -> (ChangeResult, Write?) {
            (.applied(operation, revision: next, annotation: StoredAnnotation(annotation: annotation, revision: next)), write)
        }
        if let named = change.annotationID, let annotation = change.annotation, annotation.id != named {
            return reject(.invalid, "the change names annotation \"\(named.prefix(200))\" and carries annotation \"\(annotation.id.prefix(200))\"")
        }
        // The PDF's own annotations (created with the layer) are nobody's in the layer, whatever
        // their author field says: changing or deleting one takes the right to everyone's.
        func mayModify(_ held: Held) -> Bool {
            held.created == 0 ? permissions.canAnnotate && permissions.canEditAll : permissions.mayModify(held.value.annotation, as: user)
        }
        func mayRemove(_ held: Held) -> Bool {
            held.created == 0 ? permissions.canAnnotate && permissions.canDeleteAll : permissions.mayRemove(held.value.annotation, as: user)
        }
        switch change.action {
        case .add:
            guard permissions.canAnnotate else { return reject(.notPermitted, "user \(user) may not add annotations") }
            guard var annotation = change.annotation else { return reject(.invalid, "an add needs an annotation") }
            if let problem = valid(annotation) { return reject(.invalid, problem) }
            if let held {
                return reject(.exists, "annotation \"\(annotation.id)\" is already in the layer", current: held.deleted ? nil : held.value)
            }
            annotation.author = user
            return applied(annotation, .insert(annotation))
        case .modify:
            guard var annotation = change.annotation else { return reject(.invalid, "a modify needs the annotation as modified") }
            guard let held else { return reject(.notFound, "there is no annotation \"\(annotation.id)\" in the layer") }
            guard !held.deleted else { return reject(.deleted, "annotation \"\(annotation.id)\" was deleted") }
            guard mayModify(held) else {
                return reject(.notPermitted, "annotation \"\(annotation.id)\" is not user \(user)'s to change", current: held.value)
            }
            guard let base = change.baseRevision, base >= held.value.revision else {
                return reject(
                    .conflict, "annotation \"\(annotation.id)\" changed at revision \(held.value.revision), after the change's base",
                    current: held.value)
            }
            if let problem = valid(annotation) { return reject(.invalid, problem) }
            annotation.author = held.value.annotation.author
            return applied(annotation, .update(annotation))
        case .delete:
            guard let id = change.annotationID ?? change.annotation?.id else { return reject(.invalid, "a delete needs the annotation's id") }
            guard let held else { return reject(.notFound, "there is no annotation \"\(id)\" in the layer") }
            guard !held.deleted else { return reject(.deleted, "annotation \"\(id)\" was already deleted") }
            guard mayRemove(held) else {
                return reject(.notPermitted, "annotation \"\(id)\" is not user \(user)'s to delete", current: held.value)
            }
            if let reply = replies.first(where: { !mayRemove($0) }) {
                return reject(
                    .notPermitted, "annotation \"\(id)\" has a reply, \"\(reply.value.annotation.id)\", that is not user \(user)'s to delete",
                    current: held.value)
            }
            // A delete wins over a concurrent modify: it applies whatever revision it was made on.
            return applied(held.value.annotation, .delete([id] + replies.map(\.value.annotation.id)))
        }
    }
}
