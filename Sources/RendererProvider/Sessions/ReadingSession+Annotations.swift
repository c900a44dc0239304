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
            let removed = try document.annotation(withID: id, onPageAt: pageIndex)
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
