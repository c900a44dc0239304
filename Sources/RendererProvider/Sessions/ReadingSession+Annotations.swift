/// The document's annotations through the session: the same values as ``Document``'s, with
/// the settings and the PDF's permissions enforced and every change told to the host.
extension ReadingSession {
    /// The annotations on every page, page by page.
    public func annotations() throws -> [Annotation] {
        try withDocument { document, _ in try document.annotations() }
    }

    /// The annotations on the page at `index`.
    public func annotations(onPageAt index: Int) throws -> [Annotation] {
        try withDocument { document, _ in try document.annotations(onPageAt: index) }
    }

    /// The annotation with identity `id`, as ``Document/annotation(withID:onPageAt:)`` finds it.
    public func annotation(withID id: String, onPageAt pageIndex: Int? = nil) throws -> Annotation {
        try withDocument { document, _ in try document.annotation(withID: id, onPageAt: pageIndex) }
    }

    /// Imports annotations as ``Document/importAnnotations(_:)`` does, and tells
    /// `annotationsChanged` with those added and those replaced.
    public func importAnnotations(_ incoming: [Annotation]) throws -> AnnotationImport {
        try withPermitted([.annotations]) { document, state in
            let held = Set(try document.annotations().map(\.id))
            let result = try document.importAnnotations(incoming)
            let changes = AnnotationChanges(
                added: result.imported.filter { !held.contains($0.id) }, modified: result.imported.filter { held.contains($0.id) })
            if !result.imported.isEmpty { emit(.annotationsChanged(changes), in: state) }
            return result
        }
    }

    /// Adds an annotation as ``Document/add(_:)`` does and tells `annotationsChanged`.
    /// Needs the ``SessionFeature/annotations`` setting and the PDF's annotate permission
    /// (and ``SessionFeature/redaction`` for a redaction).
    @discardableResult
    public func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        try withPermitted(Self.features(for: annotation.kind)) { document, state in
            let added = try document.add(annotation)
            emit(.annotationsChanged(AnnotationChanges(added: [added])), in: state)
            return added
        }
    }

    /// Changes an annotation as ``Document/update(_:)`` does and tells `annotationsChanged`.
    @discardableResult
    public func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        try withPermitted(Self.features(for: annotation.kind)) { document, state in
            let updated = try document.update(annotation)
            emit(.annotationsChanged(AnnotationChanges(modified: [updated])), in: state)
            return updated
        }
    }

    /// Removes the annotation `id` and tells `annotationsChanged` with its last value.
    /// Throws `invalidArgument` when there is none.
    public func removeAnnotation(withID id: String, onPageAt pageIndex: Int? = nil) throws {
        try withDocument { document, state in
            let removed: Annotation
            do {
                removed = try document.annotation(withID: id, onPageAt: pageIndex)
            } catch {
                try check(.annotations)  // refused edits are refused before anything is looked up
                throw error
            }
            for feature in Self.features(for: removed.kind) { try check(feature) }
            try document.removeAnnotation(withID: id, onPageAt: removed.pageIndex)
            emit(.annotationsChanged(AnnotationChanges(removed: [removed])), in: state)
        }
    }

    private static func features(for kind: AnnotationKind) -> [SessionFeature] {
        switch kind.rawValue {
        case "Redact": [.annotations, .redaction]
        case "Widget": [.formFilling]
        default: [.annotations]
        }
    }
}
