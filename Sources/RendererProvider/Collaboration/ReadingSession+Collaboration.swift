extension ReadingSession {
    /// Applies changes that came from other readers through the collaboration: adds and
    /// replaces (by identity) the `added` and `modified` annotations, authors and identities
    /// kept, and removes the `removed` ones the document still holds. The host hears
    /// `annotationsChanged` with ``AnnotationChanges/isRemote`` set and what was applied;
    /// the collaboration service is not told, so nothing is echoed back to the server.
    ///
    /// Remote changes are the server's to decide: the reader's own permissions and the
    /// document's annotation setting do not stop them. Throws `sessionClosed` when the
    /// session is not open, and what the engine throws for an annotation it cannot store.
    @discardableResult
    public func applyRemoteChanges(_ changes: AnnotationChanges) throws -> AnnotationChanges {
        try withDocument { document, state in
            let held = try document.annotations()
            let heldByID = Dictionary(held.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var applied = AnnotationChanges(isRemote: true)
            for annotation in changes.modified {
                // An annotation moved to another page leaves its old page first.
                if let old = heldByID[annotation.id], old.pageIndex != annotation.pageIndex {
                    try document.removeAnnotation(withID: old.id, onPageAt: old.pageIndex)
                }
            }
            let stored = try document.importAnnotations(changes.added + changes.modified).imported
            for annotation in stored {
                if heldByID[annotation.id] == nil { applied.added.append(annotation) } else { applied.modified.append(annotation) }
            }
            for annotation in changes.removed {
                guard let existing = heldByID[annotation.id] ?? stored.first(where: { $0.id == annotation.id }) else { continue }
                try document.removeAnnotation(withID: existing.id, onPageAt: existing.pageIndex)
                applied.removed.append(existing)
            }
            if !applied.isEmpty { emit(.annotationsChanged(applied), in: state) }
            return applied
        }
    }
}
