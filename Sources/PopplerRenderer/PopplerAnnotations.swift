import CPopplerCpp
import EngineSupport
import Foundation
import RendererProvider

extension PopplerRenderer {
    /// Through Poppler's core API, Poppler creates every kind the API knows and reads and
    /// writes every field.
    static let annotations = AnnotationSupport.complete
}

extension PopplerPage {
    func annotations() throws -> [Annotation] {
        let space = try pageSpace()
        return try withRawAnnotations { AnnotationRecords.annotations($0, pageIndex: index, point: space.point(x:y:)) }
    }

    func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        let space = try pageSpace()
        let status = try AnnotationRecords.withRecord(of: annotation, point: space.userPoint) { cpoppler_core_create_annot(try document.core().handle, Int32(index), $0) }
        try check(status, doing: "add a \(annotation.kind) annotation to page \(index + 1)")
        return try annotations().annotation(withID: annotation.id, pageIndex: index, backend: PopplerErrors.backend)
    }

    /// Writes the annotation's identity as its `/NM`, so a positional key stays its name.
    func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        let position = try annotations().position(of: annotation.id, pageIndex: index, backend: PopplerErrors.backend)
        let space = try pageSpace()
        let status = try AnnotationRecords.withRecord(of: annotation, point: space.userPoint) {
            cpoppler_core_update_annot(try document.core().handle, Int32(index), Int32(position), $0)
        }
        try check(status, doing: "change annotation \"\(annotation.id)\"")
        return try annotations().annotation(withID: annotation.id, pageIndex: index, backend: PopplerErrors.backend)
    }

    /// Before removing, names the page's other annotations of the same kind that are known
    /// by a positional key, so that their identities do not move.
    func removeAnnotation(id: String) throws {
        let current = try annotations()
        let position = try current.position(of: id, pageIndex: index, backend: PopplerErrors.backend)
        let core = try document.core().handle
        let names = try withRawAnnotations { $0.map(AnnotationRecords.name(of:)) }
        for (other, annotation) in current.enumerated()
        where other != position && annotation.kind == current[position].kind && names[other] != annotation.id {
            try check(cpoppler_core_name_annot(core, Int32(index), Int32(other), annotation.id), doing: "name annotation \"\(annotation.id)\"")
        }
        try check(cpoppler_core_delete_annot(core, Int32(index), Int32(position)), doing: "remove annotation \"\(id)\"")
    }

    func pageSpace() throws -> PageSpace {
        guard let space = document.pageSpace(ofPage: index) else {
            throw RendererError(.damaged, "Poppler could not load page \(index + 1)", backend: PopplerErrors.backend)
        }
        return space
    }

    private func withRawAnnotations<T>(_ body: (UnsafeBufferPointer<annotation_record>) throws -> T) throws -> T {
        var list: UnsafeMutablePointer<annotation_record>?
        let count = cpoppler_core_page_annots(try document.core().handle, Int32(index), &list)
        guard count >= 0 else {
            throw RendererError(.damaged, "Poppler could not read the annotations of page \(index + 1)", backend: PopplerErrors.backend)
        }
        defer { annotation_records_free(list, count) }
        return try body(UnsafeBufferPointer(start: list, count: Int(count)))
    }

    /// Throws for a failed edit; after a successful one, marks the document changed.
    private func check(_ status: cpoppler_status, doing action: String) throws {
        let reason: String
        let code: RendererError.Code
        switch status {
        case CPOPPLER_OK:
            document.annotationsChanged()
            return
        case CPOPPLER_NO_PAGE: (code, reason) = (.damaged, "the page cannot be loaded")
        case CPOPPLER_NO_ANNOTATION: (code, reason) = (.invalidArgument, "there is no such annotation")
        case CPOPPLER_UNSUPPORTED: (code, reason) = (.unsupported, "Poppler cannot do that with this kind of annotation")
        case CPOPPLER_ARGUMENT: (code, reason) = (.invalidArgument, "a field is set that this kind of annotation cannot have")
        default: (code, reason) = (.limitExceeded, "out of memory")
        }
        throw RendererError(code, "Poppler could not \(action): \(reason)", backend: PopplerErrors.backend)
    }
}
