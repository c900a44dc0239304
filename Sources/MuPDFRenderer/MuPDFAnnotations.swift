import CMuPDF
import EngineSupport
import Foundation
import RendererProvider

extension MuPDFRenderer {
    /// MuPDF creates every kind the API knows and reads and writes every field.
    static let annotations = AnnotationSupport.complete
}

extension MuPDFPage {
    func annotations() throws -> [Annotation] {
        try withRawAnnotations { AnnotationRecords.annotations($0, pageIndex: index) { PagePoint(x: $0, y: $1) } }
    }

    func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        var error = cmupdf_error()
        let ok = try AnnotationRecords.withRecord(of: annotation, point: { ($0.x, $0.y) }) { cmupdf_create_annot(document.handle, handle, $0, &error) }
        guard ok != 0 else { throw Self.editFailure(error, doing: "add a \(annotation.kind) annotation to page \(index + 1)") }
        return try annotations().annotation(withID: annotation.id, pageIndex: index, backend: MuPDFErrors.backend)
    }

    /// Writes the annotation's identity as its `/NM`, so a positional key stays its name.
    func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        let position = try annotations().position(of: annotation.id, pageIndex: index, backend: MuPDFErrors.backend)
        var error = cmupdf_error()
        let ok = try AnnotationRecords.withRecord(of: annotation, point: { ($0.x, $0.y) }) { cmupdf_update_annot(document.handle, handle, Int32(position), $0, &error) }
        guard ok != 0 else { throw Self.editFailure(error, doing: "change annotation \"\(annotation.id)\"") }
        return try annotations().annotation(withID: annotation.id, pageIndex: index, backend: MuPDFErrors.backend)
    }

    /// Before removing, names the page's other annotations of the same kind that are known
    /// by a positional key, so that their identities do not move.
    func removeAnnotation(id: String) throws {
        let current = try annotations()
        let position = try current.position(of: id, pageIndex: index, backend: MuPDFErrors.backend)
        var error = cmupdf_error()
        let names = try withRawAnnotations { $0.map(AnnotationRecords.name(of:)) }
        for (other, annotation) in current.enumerated()
        where other != position && annotation.kind == current[position].kind && names[other] != annotation.id {
            guard cmupdf_name_annot(document.handle, handle, Int32(other), annotation.id, &error) != 0 else {
                throw Self.editFailure(error, doing: "name annotation \"\(annotation.id)\"")
            }
        }
        guard cmupdf_delete_annot(document.handle, handle, Int32(position), &error) != 0 else {
            throw Self.editFailure(error, doing: "remove annotation \"\(id)\"")
        }
    }

    func pageSpace() throws -> PageSpace {
        var box: (Float, Float, Float, Float) = (0, 0, 0, 0)
        var rotation: Int32 = 0
        var error = cmupdf_error()
        let ok = withUnsafeMutableBytes(of: &box) {
            cmupdf_page_space(document.handle, handle, $0.baseAddress!.assumingMemoryBound(to: Float.self), &rotation, &error)
        }
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "measure page \(index + 1)", code: .damaged) }
        return PageSpace(
            cropBox: UserRect(x0: Double(box.0), y0: Double(box.1), x1: Double(box.2), y1: Double(box.3)),
            rotation: PageRotation(degrees: Int(rotation)) ?? .none)
    }

    private func withRawAnnotations<T>(_ body: (UnsafeBufferPointer<annotation_record>) throws -> T) throws -> T {
        var list: UnsafeMutablePointer<annotation_record>?
        var error = cmupdf_error()
        let count = cmupdf_page_annots(document.handle, handle, &list, &error)
        guard count >= 0 else { throw MuPDFErrors.translate(error, doing: "read the annotations of page \(index + 1)", code: .damaged) }
        defer { annotation_records_free(list, count) }
        return try body(UnsafeBufferPointer(start: list, count: Int(count)))
    }

    private static func editFailure(_ error: cmupdf_error, doing action: String) -> RendererError {
        MuPDFErrors.translate(error, doing: action, code: .invalidArgument)
    }
}

extension MuPDFDocument {
    var canSaveIncrementally: Bool { cmupdf_can_save_incrementally(handle) != 0 }

    func write(to path: String, incremental: Bool) throws {
        var error = cmupdf_error()
        guard cmupdf_save(handle, path, incremental ? 1 : 0, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "save to \(path)", code: error.code == Int32(CMUPDF_ERROR_IO) ? .ioFailure : .engineFailure)
        }
    }

    /// The first part of the trailer's `/ID` in hexadecimal, nil when there is none.
    func fileIdentifier() -> String? {
        var bytes = [UInt8](repeating: 0, count: 64)
        let length = Int(cmupdf_file_identifier(handle, &bytes, Int32(bytes.count)))
        guard length > 0 else { return nil }
        return bytes.prefix(min(length, bytes.count)).map { String(format: "%02x", $0) }.joined()
    }
}
