import CAnnotationRecord
import RendererEngine

/// The few annotation edits an engine's C layer performs on one page, on the annotation an
/// object number names. The page's annotations are read once for every backend, from the
/// objects (``PDFObjectEditing/annotations(onPage:in:)``); ``AnnotationEditing``'s extension
/// builds the API's edits by identity on these calls.
package protocol AnnotationEditing: EnginePage {
    associatedtype Objects: PDFObjectEditing
    /// The document, whose objects the page's annotations are read from.
    var document: Objects { get }
    /// The 0-based index of the page.
    var index: Int { get }
    /// The id of the backend, for errors.
    var rendererID: String { get }
    /// The coordinates the C layer's records use on this page.
    func recordCoordinates() throws -> RecordCoordinates
    /// Appends a new annotation of `annotation`'s kind, given as `record` in the page's
    /// record coordinates, and returns its object. Only its kind and place need be set:
    /// ``updateAnnotation(_:to:as:)`` follows, before which its appearance need not be drawn.
    func createAnnotation(_ annotation: Annotation, as record: UnsafePointer<annotation_record>) throws -> PDFReference
    /// Gives the annotation `reference` names what the engine keeps of its own of
    /// `annotation`, given as `record` (its shape, text style and icon), then draws its
    /// appearance from its dictionary, which holds its plain entries by then. A stamp keeps
    /// the appearance it has unless its icon changes.
    func updateAnnotation(_ reference: PDFReference, to annotation: Annotation, as record: UnsafePointer<annotation_record>) throws
    /// Sets each of `entries` of the annotation `reference` names, in order, to its value
    /// (nil removes it), so that the engine's own view of the annotation holds them too. A
    /// stamp's appearance is kept.
    func setAnnotationEntries(_ entries: [(key: String, value: PDFObject?)], of reference: PDFReference) throws
    /// Removes the annotation `reference` names, with its popup.
    func deleteAnnotation(_ reference: PDFReference) throws
    /// Gives the stamp annotation `reference` names an appearance that draws `image` over
    /// its whole rectangle.
    func setStampImage(of reference: PDFReference, _ image: StampImage) throws
}

extension AnnotationEditing {
    /// The page's annotations, identified as ``Annotation/id`` says.
    package func annotations() throws -> [Annotation] {
        try listed().map(\.annotation)
    }

    /// Adds `annotation` and returns it as read back. The page's other annotations are read
    /// only to find the one it answers: adding takes the same time on a page of thousands.
    package func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        let root = annotation.inReplyTo == nil ? nil : try rootReference(of: annotation, among: try listed())
        let reference = try AnnotationRecords.withRecord(of: annotation, point: try recordCoordinates().recordPoint) { record in
            let reference = try createAnnotation(annotation, as: record)
            do {
                try write(annotation, root: root, as: record, to: reference)
            } catch {
                try? deleteAnnotation(reference)
                throw error
            }
            return reference
        }
        return try readBack(annotation, at: reference)
    }

    /// Adds the stamp `annotation` showing `image` and returns it as read back; when the
    /// image cannot be set, the stamp is removed again, so nothing is added.
    package func addStamp(_ annotation: Annotation, showing image: StampImage) throws -> Annotation {
        let added = try addAnnotation(annotation)
        let reference = try listed().reference(of: added.id, pageIndex: index, rendererID: rendererID)
        do {
            try setStampImage(of: reference, image)
        } catch {
            try? deleteAnnotation(reference)
            throw error
        }
        return try annotations().annotation(withID: added.id, pageIndex: index, rendererID: rendererID)
    }

    /// Changes the annotation with `annotation`'s identity to its fields and returns it as
    /// read back. The identity is written as `/NM`, so a positional key stays its name.
    package func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        let current = try listed()
        let reference = try current.reference(of: annotation.id, pageIndex: index, rendererID: rendererID)
        let root = try rootReference(of: annotation, among: current)
        try AnnotationRecords.withRecord(of: annotation, point: try recordCoordinates().recordPoint) {
            try write(annotation, root: root, as: $0, to: reference)
        }
        return try readBack(annotation, at: reference)
    }

    /// Gives the annotation `reference` names every field of `annotation` (given as
    /// `record`, answering the annotation `root` names): the plain entries the engines draw
    /// from, then the engine's own edit, which draws, then the text entries.
    private func write(_ annotation: Annotation, root: PDFReference?, as record: UnsafePointer<annotation_record>, to reference: PDFReference) throws {
        // The border style it has is kept under a new width.
        let current = annotation.borderWidth != nil && document.contentType == .pdf ? try document.object(reference.number) : nil
        try setAnnotationEntries(AnnotationEntries.drawn(of: annotation, answering: root, current: current), of: reference)
        try updateAnnotation(reference, to: annotation, as: record)
        try setAnnotationEntries(AnnotationEntries.text(of: annotation), of: reference)
    }

    /// `annotation` as the page now holds it at `reference`, after an edit that wrote its
    /// identity as `/NM` (``AnnotationEntries/text(of:)``); the page read whole for one without.
    private func readBack(_ annotation: Annotation, at reference: PDFReference) throws -> Annotation {
        guard !annotation.id.isEmpty, document.contentType == .pdf else {
            return try annotations().annotation(withID: annotation.id, pageIndex: index, rendererID: rendererID)
        }
        return try document.namedAnnotation(reference, id: annotation.id, inReplyTo: annotation.inReplyTo, onPage: index, in: try pageSpace())
    }

    /// Removes the annotation `id`. Before that, the page's other annotations of the same
    /// kind that are known by a positional key are given it as their `/NM`, so that their
    /// identities do not move when the ordinals after the removed one would.
    package func removeAnnotation(id: String) throws {
        let current = try listed()
        let reference = try current.reference(of: id, pageIndex: index, rendererID: rendererID)
        let kind = current.first { $0.annotation.id == id }?.annotation.kind
        for other in current where other.annotation.id != id && other.annotation.kind == kind && other.name != other.annotation.id {
            try setAnnotationEntries([("NM", .text(other.annotation.id))], of: try current.reference(of: other.annotation.id, pageIndex: index, rendererID: rendererID))
        }
        try deleteAnnotation(reference)
    }

    /// The page's annotations with the object and name of each; none in a document that is
    /// no PDF.
    private func listed() throws -> [ListedAnnotation] {
        guard document.contentType == .pdf else { return [] }
        return try document.listedAnnotations(onPage: index, in: try pageSpace())
    }

    /// The object of the annotation `annotation` answers; nil when it answers none. Throws
    /// `invalidArgument` when that one is not on this page or is `annotation` itself.
    private func rootReference(of annotation: Annotation, among current: [ListedAnnotation]) throws -> PDFReference? {
        guard let root = annotation.inReplyTo else { return nil }
        guard root != annotation.id, current.contains(where: { $0.annotation.id == root }) else {
            throw RendererError(
                .invalidArgument, "an annotation answers another of its page, not \"\(root)\" (page \(index + 1))", rendererID: rendererID)
        }
        return try current.reference(of: root, pageIndex: index, rendererID: rendererID)
    }
}

/// How a point of page space is written in a page's annotation records: as it is (MuPDF's
/// C layer converts) or in PDF user space (Poppler's core API).
package struct RecordCoordinates {
    package var recordPoint: (PagePoint) -> (x: Double, y: Double)

    /// Records in page space.
    package static var pageSpace: RecordCoordinates {
        RecordCoordinates(recordPoint: { ($0.x, $0.y) })
    }

    /// Records in the user space of a page with `space`'s crop box and rotation.
    package static func userSpace(_ space: PageSpace) -> RecordCoordinates {
        RecordCoordinates(recordPoint: space.userPoint)
    }
}
