import CAnnotationRecord
import CMuPDF
import EngineSupport
import RendererProvider

extension MuPDFDocument {
    func signatureFields() throws -> [SignatureField] {
        var records: UnsafeMutablePointer<signature_record>?
        var fileSize: Int64 = 0
        var error = cmupdf_error()
        let count = cmupdf_signatures(handle, &records, &fileSize, &error)
        guard count >= 0 else { throw MuPDFErrors.translate(error, doing: "read the form's signature fields", code: .damaged) }
        defer { signature_records_free(records, count) }
        return SignatureField.fields(from: UnsafeBufferPointer(start: records, count: Int(count)), fileSize: fileSize)
    }

    func formFields() throws -> [FormField] {
        var records: UnsafeMutablePointer<form_field_record>?
        var error = cmupdf_error()
        let count = cmupdf_form_fields(handle, &records, &error)
        guard count >= 0 else { throw MuPDFErrors.translate(error, doing: "read the form's fields", code: .damaged) }
        defer { form_field_records_free(records, count) }
        return try FormField.fields(from: UnsafeBufferPointer(start: records, count: Int(count))) { try loadPage(at: $0).pageSpace() }
    }
}
