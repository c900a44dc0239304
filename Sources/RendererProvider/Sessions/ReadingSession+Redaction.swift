extension ReadingSession {
    /// Marks an area for redaction as ``Document/markRedaction(_:onPageAt:)`` does and
    /// tells `annotationsChanged` with the mark. Needs the ``SessionFeature/annotations`` and
    /// ``SessionFeature/redaction`` settings and the PDF's modify permission. Marks are the
    /// document's own: they are not shared with a collaboration layer.
    @discardableResult
    public func markRedaction(_ area: PageRect, onPageAt index: Int) throws -> Annotation {
        try withPermitted([.annotations, .redaction]) { document, state in
            let mark = try document.markRedaction(area, onPageAt: index)
            emit(.annotationsChanged(AnnotationChanges(added: [mark])), in: state)
            return mark
        }
    }

    /// Applies the redactions of one page or every page as
    /// ``Document/applyRedactions(pageAt:blackBoxes:)`` does and tells `annotationsChanged`
    /// with the marks it removed. Needs the ``SessionFeature/redaction`` setting and the
    /// PDF's modify permission.
    @discardableResult
    public func applyRedactions(pageAt index: Int? = nil, blackBoxes: Bool = true) throws -> [Int] {
        try withPermitted([.redaction]) { document, state in
            let pages = index.map { [$0] } ?? Array(0..<document.pageCount)
            let marks = try pages.flatMap { try document.annotations(pageAt: $0).filter { $0.kind == .redact } }
            let applied = try document.applyRedactions(pageAt: index, blackBoxes: blackBoxes)
            if !applied.isEmpty { forgetEdits(in: state) }
            let removed = marks.filter { applied.contains($0.pageIndex) }
            if !removed.isEmpty { emit(.annotationsChanged(AnnotationChanges(removed: removed)), in: state) }
            return applied
        }
    }
}
