import CAnnotationRecord
import CMuPDF
import EngineSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

extension MuPDFRenderer {
    /// MuPDF creates every kind the API knows and reads and writes every field.
    static let annotations = AnnotationSupport.complete
}

/// MuPDF's C layer edits annotations by object, with records in page space; the listing and
/// the edits by identity are `AnnotationEditing`'s, shared with Poppler.
extension MuPDFPage: AnnotationEditing {
    var rendererID: String { MuPDFErrors.rendererID }

    func recordCoordinates() throws -> RecordCoordinates { .pageSpace }

    func createAnnotation(_ annotation: Annotation, as record: UnsafePointer<annotation_record>) throws -> PDFReference {
        var number: Int32 = 0
        try edit("add a \(annotation.kind) annotation to page \(index + 1)") { cmupdf_create_annot(document.handle, handle, record, &number, &$0) }
        return PDFReference(number: Int(number), generation: 0)
    }

    func updateAnnotation(_ reference: PDFReference, to annotation: Annotation, as record: UnsafePointer<annotation_record>) throws {
        try edit("change annotation \"\(annotation.id)\"") { cmupdf_update_annot(document.handle, handle, Int32(reference.number), record, &$0) }
    }

    /// MuPDF's annotation reads its dictionary, which the object primitive writes; its
    /// appearance is drawn from it by the next `updateAnnotation`.
    func setAnnotationEntries(_ entries: [(key: String, value: PDFObject?)], of reference: PDFReference) throws {
        for (key, value) in entries { try document.setEntry(key, of: reference, to: value) }
    }

    func deleteAnnotation(_ reference: PDFReference) throws {
        try edit("remove annotation object \(reference.number) of page \(index + 1)") {
            cmupdf_delete_annot(document.handle, handle, Int32(reference.number), &$0)
        }
    }

    func setStampImage(of reference: PDFReference, _ image: StampImage) throws {
        try edit("draw an image in stamp object \(reference.number) of page \(index + 1)") { error in
            image.withPlanes { rgb, alpha in
                cmupdf_set_stamp_image(document.handle, handle, Int32(reference.number), Int32(image.width), Int32(image.height), rgb, alpha, &error)
            }
        }
    }

    func addImageStamp(_ annotation: Annotation, image: StampImage) throws -> Annotation {
        try addStamp(annotation, showing: image)
    }

    /// Runs one C edit; a refusal is `invalidArgument` (or the engine's own code).
    private func edit(_ action: String, _ call: (inout cmupdf_error) -> Int32) throws {
        var error = cmupdf_error()
        guard call(&error) != 0 else { throw MuPDFErrors.translate(error, doing: action, code: .invalidArgument) }
    }
}
