import CAnnotationRecord
import RendererProvider

/// The few annotation edits an engine's C layer performs on one page, by position in the
/// page's `/Annots` array. ``AnnotationEditing``'s extension builds the API's edits by
/// identity on them once, for every backend.
package protocol AnnotationEditing: EnginePage {
    /// The 0-based index of the page.
    var index: Int { get }
    /// The id of the backend, for errors.
    var backendID: String { get }
    /// The page's raw annotation records, in `/Annots` order, valid during `body`.
    func withAnnotationRecords<T>(_ body: (UnsafeBufferPointer<annotation_record>) throws -> T) throws -> T
    /// The coordinates the C layer's records use on this page.
    func recordCoordinates() throws -> RecordCoordinates
    /// Appends `annotation`, given as `record` in the page's record coordinates.
    func createAnnotation(_ annotation: Annotation, as record: UnsafePointer<annotation_record>) throws
    /// Gives the annotation at `position` the fields of `annotation`, given as `record`.
    func updateAnnotation(at position: Int, to annotation: Annotation, as record: UnsafePointer<annotation_record>) throws
    /// Writes `name` as the `/NM` of the annotation at `position`.
    func nameAnnotation(at position: Int, _ name: String) throws
    /// Removes the annotation at `position` with its popup.
    func deleteAnnotation(at position: Int) throws
    /// Gives the stamp annotation at `position` an appearance that draws `image` over its
    /// whole rectangle.
    func setStampImage(at position: Int, _ image: StampImage) throws
}

extension AnnotationEditing {
    /// The page's annotations, identified as ``Annotation/id`` says.
    package func annotations() throws -> [Annotation] {
        let coordinates = try recordCoordinates()
        return try withAnnotationRecords { AnnotationRecords.annotations($0, pageIndex: index, point: coordinates.pagePoint) }
    }

    /// Adds `annotation` and returns it as read back.
    package func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        let root = try rootPosition(of: annotation, among: try annotations())
        try AnnotationRecords.withRecord(of: annotation, rootPosition: root, point: try recordCoordinates().recordPoint) {
            try createAnnotation(annotation, as: $0)
        }
        return try annotations().annotation(withID: annotation.id, pageIndex: index, backend: backendID)
    }

    /// Adds the stamp `annotation` showing `image` and returns it as read back; when the
    /// image cannot be set, the stamp is removed again, so nothing is added.
    package func addStamp(_ annotation: Annotation, showing image: StampImage) throws -> Annotation {
        let added = try addAnnotation(annotation)
        let position = try annotations().position(of: added.id, pageIndex: index, backend: backendID)
        do {
            try setStampImage(at: position, image)
        } catch {
            try? deleteAnnotation(at: position)
            throw error
        }
        return try annotations().annotation(withID: added.id, pageIndex: index, backend: backendID)
    }

    /// Changes the annotation with `annotation`'s identity to its fields and returns it as
    /// read back. The identity is written as `/NM`, so a positional key stays its name.
    package func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        let current = try annotations()
        let position = try current.position(of: annotation.id, pageIndex: index, backend: backendID)
        let root = try rootPosition(of: annotation, among: current)
        try AnnotationRecords.withRecord(of: annotation, rootPosition: root, point: try recordCoordinates().recordPoint) {
            try updateAnnotation(at: position, to: annotation, as: $0)
        }
        return try annotations().annotation(withID: annotation.id, pageIndex: index, backend: backendID)
    }

    /// Where the annotation `annotation` answers is among the page's `current` ones; nil
    /// when it answers none. Throws `invalidArgument` when that one is not on this page or is
    /// `annotation` itself.
    private func rootPosition(of annotation: Annotation, among current: [Annotation]) throws -> Int? {
        guard let root = annotation.inReplyTo else { return nil }
        guard root != annotation.id, let position = current.firstIndex(where: { $0.id == root }) else {
            throw RendererError(
                .invalidArgument, "an annotation answers another of its page, not \"\(root)\" (page \(index + 1))", backend: backendID)
        }
        return position
    }

    /// Removes the annotation `id`. Before that, the page's other annotations of the same
    /// kind that are known by a positional key are given it as their `/NM`, so that their
    /// identities do not move when the ordinals after the removed one would.
    package func removeAnnotation(id: String) throws {
        let current = try annotations()
        let position = try current.position(of: id, pageIndex: index, backend: backendID)
        let names = try withAnnotationRecords { $0.map(AnnotationRecords.name(of:)) }
        for (other, annotation) in current.enumerated()
        where other != position && annotation.kind == current[position].kind && names[other] != annotation.id {
            try nameAnnotation(at: other, annotation.id)
        }
        try deleteAnnotation(at: position)
    }
}

/// How the points of a page's annotation records map to page space: page space itself
/// (MuPDF's C layer converts) or PDF user space (Poppler's core API).
package struct RecordCoordinates {
    package var pagePoint: (Double, Double) -> PagePoint
    package var recordPoint: (PagePoint) -> (x: Double, y: Double)

    /// Records in page space.
    package static var pageSpace: RecordCoordinates {
        RecordCoordinates(pagePoint: { PagePoint(x: $0, y: $1) }, recordPoint: { ($0.x, $0.y) })
    }

    /// Records in the user space of a page with `space`'s crop box and rotation.
    package static func userSpace(_ space: PageSpace) -> RecordCoordinates {
        RecordCoordinates(pagePoint: space.point(x:y:), recordPoint: space.userPoint)
    }
}
