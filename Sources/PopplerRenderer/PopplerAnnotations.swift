import CAnnotationRecord
import CPopplerBridge
import EngineSupport
import Foundation
import RendererEngine

extension PopplerRenderer {
    /// Through Poppler's core API, Poppler creates every kind the API knows and reads and
    /// writes every field.
    static let annotations = AnnotationSupport.complete
}

/// Poppler's core API edits annotations by object, with records in PDF user space; the
/// listing and the edits by identity are `AnnotationEditing`'s, shared with MuPDF. After each edit the glib
/// document is marked out of date, so that the next page drawn shows it.
extension PopplerPage: AnnotationEditing {
    var rendererID: String { PopplerErrors.rendererID }

    func recordCoordinates() throws -> RecordCoordinates { .userSpace(try pageSpace()) }

    func createAnnotation(_ annotation: Annotation, as record: UnsafePointer<annotation_record>) throws -> PDFReference {
        try Self.requireDrawnFont(annotation.textStyle)
        var number: Int32 = 0
        try edit("add a \(annotation.kind) annotation to page \(index + 1)") { $0.createAnnotation(onPage: index, record, &number) }
        return PDFReference(number: Int(number), generation: 0)
    }

    func updateAnnotation(_ reference: PDFReference, to annotation: Annotation, as record: UnsafePointer<annotation_record>) throws {
        // A font read from the file may stay; only a change to one Poppler cannot draw is refused.
        if let family = annotation.textStyle?.fontFamily, family != .helvetica,
            family != (try annotations().first { $0.id == annotation.id }?.textStyle?.fontFamily)
        {
            try Self.requireDrawnFont(annotation.textStyle)
        }
        try edit("change annotation \"\(annotation.id)\"") { $0.updateAnnotation(onPage: index, reference, to: record) }
    }

    func setAnnotationEntries(_ entries: [(key: String, value: PDFObject?)], of reference: PDFReference) throws {
        try edit("write \(entries.map { "/" + $0.key }.joined(separator: ", ")) of annotation object \(reference.number)") {
            $0.setAnnotationEntries(entries.map(\.key), to: PDFObject.array(entries.map { $0.value ?? .null }).syntax, onPage: index, reference)
        }
    }

    func deleteAnnotation(_ reference: PDFReference) throws {
        try edit("remove annotation object \(reference.number) of page \(index + 1)") { $0.deleteAnnotation(onPage: index, reference) }
    }

    func setStampImage(of reference: PDFReference, _ image: StampImage) throws {
        try edit("draw an image in stamp object \(reference.number) of page \(index + 1)") { $0.setStampImage(onPage: index, reference, image) }
    }

    func addImageStamp(_ annotation: Annotation, image: StampImage) throws -> Annotation {
        try addStamp(annotation, showing: image)
    }

    /// Refuses a free text font other than Helvetica: Poppler writes no appearance stream for
    /// free text, and Poppler 22.12 draws one from its `/DA` in Helvetica whatever font it
    /// names, so such text would look different in Poppler's readers than in others.
    private static func requireDrawnFont(_ style: TextStyle?) throws {
        guard let style, style.fontFamily != .helvetica else { return }
        throw RendererError(
            .unsupported, "Poppler draws free text only in Helvetica, not \(style.fontFamily.rawValue.prefix(64)): use MuPDF for other fonts",
            rendererID: PopplerErrors.rendererID)
    }

    /// Runs one edit on the core document; after a successful one, marks the document changed.
    private func edit(_ action: String, _ call: (PopplerCoreDocument) -> cpoppler_status) throws {
        let status = call(document.core)
        guard status == CPOPPLER_OK else { throw PopplerErrors.editFailure(status, doing: action) }
        document.coreChanged()
    }
}
