/// The document's annotations through the session: the same values as ``Document``'s, with
/// the settings and the PDF's permissions enforced and every change told to the host.
extension ReadingSession {
    /// The annotations on every page, page by page.
    public func annotations() throws -> [Annotation] {
        try withDocument { document, _ in try document.annotations() }
    }

    /// The annotations on the page at `index`.
    public func annotations(pageAt index: Int) throws -> [Annotation] {
        try withDocument { document, _ in try document.annotations(pageAt: index) }
    }

    /// The annotation with identity `id`, as ``Document/annotation(withID:onPageAt:)`` finds it.
    public func annotation(withID id: String, onPageAt pageIndex: Int? = nil) throws -> Annotation {
        try withDocument { document, _ in try document.annotation(withID: id, onPageAt: pageIndex) }
    }

    /// Imports annotations as ``Document/importAnnotations(_:)`` does, and tells
    /// `annotationsChanged` with those added and those replaced.
    public func importAnnotations(_ incoming: [Annotation]) throws -> AnnotationImport {
        try withPermitted([.annotations]) { document, state in
            let heldAnnotations = try document.annotations()
            let held = Set(heldAnnotations.map(\.id))
            var incoming = incoming
            if let collaboration = configuration.collaboration {
                let byID = Dictionary(heldAnnotations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                incoming = try incoming.map { annotation in
                    guard let existing = byID[annotation.id] else { return try Self.authored(annotation, in: collaboration) }
                    return try Self.permittedUpdate(annotation, of: existing, in: collaboration)
                }
            }
            let result = try document.importAnnotations(incoming)
            let changes = AnnotationChanges(
                added: result.imported.filter { !held.contains($0.id) }, modified: result.imported.filter { held.contains($0.id) })
            if !result.imported.isEmpty { changed(changes, in: state) }
            return result
        }
    }

    /// Adds an annotation as ``Document/addAnnotation(_:)`` does and tells `annotationsChanged`.
    /// Needs the ``SessionFeature/annotations`` setting and the PDF's annotate permission
    /// (and ``SessionFeature/redaction`` for a redaction). In collaboration mode the reader
    /// is its author, whatever the annotation says.
    @discardableResult
    public func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        try withPermitted(Self.features(for: annotation.kind)) { document, state in
            var annotation = annotation
            if let collaboration = configuration.collaboration { annotation = try Self.authored(annotation, in: collaboration) }
            let added = try document.addAnnotation(annotation)
            changed(AnnotationChanges(added: [added]), in: state)
            recorded(.addedAnnotations([added]), in: state)
            return added
        }
    }

    /// Adds a stamp that shows `image` as ``Document/addImageStamp(_:image:)`` does and tells
    /// `annotationsChanged`, under the same settings, permissions and authorship as
    /// ``addAnnotation(_:)``; undo takes it back and redo puts it, picture and all, back.
    @discardableResult
    public func addImageStamp(_ annotation: Annotation, image: StampImage) throws -> Annotation {
        try withPermitted(Self.features(for: annotation.kind)) { document, state in
            var annotation = annotation
            if let collaboration = configuration.collaboration { annotation = try Self.authored(annotation, in: collaboration) }
            let added = try document.addImageStamp(annotation, image: image)
            changed(AnnotationChanges(added: [added]), in: state)
            recorded(.addedImageStamp(added, image), in: state)
            return added
        }
    }

    /// Changes an annotation as ``Document/updateAnnotation(_:)`` does and tells `annotationsChanged`.
    /// In collaboration mode the author stays the annotation's own, and changing another
    /// reader's annotation needs `annotations:edit:all`.
    @discardableResult
    public func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        try withPermitted(Self.features(for: annotation.kind)) { document, state in
            var annotation = annotation
            let existing = try document.annotation(withID: annotation.id, onPageAt: annotation.pageIndex)
            if let collaboration = configuration.collaboration {
                annotation = try Self.permittedUpdate(annotation, of: existing, in: collaboration)
            }
            let updated = try document.updateAnnotation(annotation)
            changed(AnnotationChanges(modified: [updated]), in: state)
            recorded(.updatedAnnotation(before: existing, after: updated), in: state)
            return updated
        }
    }

    /// Removes the annotation `id` with its replies (its thread, as ``Document/removeAnnotation(withID:onPageAt:)``
    /// does) and tells `annotationsChanged` with their last values, the annotation first.
    /// Throws `invalidArgument` when there is none. In collaboration mode, removing another
    /// reader's annotation, or a thread with another reader's reply, needs `annotations:delete:all`.
    public func removeAnnotation(withID id: String, onPageAt pageIndex: Int? = nil) throws {
        try withDocument { document, state in
            let removed: Annotation
            do {
                removed = try document.annotation(withID: id, onPageAt: pageIndex)
            } catch {
                try check(.annotations)  // refused edits are refused before anything is looked up
                throw error
            }
            let thread = [removed] + (try document.annotations(pageAt: removed.pageIndex).replies(to: id))
            var checked: Set<SessionFeature> = []
            for feature in thread.flatMap({ Self.features(for: $0.kind) }) where checked.insert(feature).inserted { try check(feature) }
            if let collaboration = configuration.collaboration,
                let other = thread.first(where: { !collaboration.permissions.mayRemove($0, as: collaboration.currentUserID) })
            {
                throw Self.othersAnnotation(other, in: collaboration, "remove")
            }
            try document.removeAnnotation(withID: id, onPageAt: removed.pageIndex)
            changed(AnnotationChanges(removed: thread), in: state)
            recorded(.removedAnnotations(thread), in: state)
        }
    }

    /// Tells the host of a change the reader made, and the collaboration, if any.
    private func changed(_ changes: AnnotationChanges, in state: State) {
        emit(.annotationsChanged(changes), in: state)
        configuration.collaboration?.session(self, didChangeLocally: changes)
    }

    /// `annotation` with the collaboration's reader as its author; throws `notPermitted`
    /// when the reader may not annotate.
    private static func authored(_ annotation: Annotation, in collaboration: any CollaborationService) throws -> Annotation {
        guard collaboration.permissions.canAnnotate else {
            throw RendererError(.notPermitted, "user \(collaboration.currentUserID) may only read this document's annotations")
        }
        var annotation = annotation
        annotation.author = collaboration.currentUserID
        return annotation
    }

    /// `annotation` as a change of `existing` the reader may make: its author kept; throws
    /// `notPermitted` for another reader's annotation without `annotations:edit:all`.
    private static func permittedUpdate(_ annotation: Annotation, of existing: Annotation, in collaboration: any CollaborationService) throws -> Annotation {
        guard collaboration.permissions.mayModify(existing, as: collaboration.currentUserID) else {
            throw othersAnnotation(existing, in: collaboration, "change")
        }
        var annotation = annotation
        annotation.author = existing.author
        return annotation
    }

    private static func othersAnnotation(_ annotation: Annotation, in collaboration: any CollaborationService, _ verb: String) -> RendererError {
        let owner = annotation.author.map { "user \($0)" } ?? "no one (the document's own)"
        return RendererError(
            .notPermitted,
            "annotation \"\(annotation.id)\" belongs to \(owner); user \(collaboration.currentUserID) may not \(verb) it")
    }

    private static func features(for kind: AnnotationKind) -> [SessionFeature] {
        switch kind.rawValue {
        case "Redact": [.annotations, .redaction]
        case "Widget": [.formFilling]
        default: [.annotations]
        }
    }
}
