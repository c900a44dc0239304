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
        return markingCertification(SignatureField.fields(from: UnsafeBufferPointer(start: records, count: Int(count)), fileSize: fileSize))
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

extension MuPDFDocument {
    func xfaFacts() -> XFAFacts {
        XFAFacts(rawValue: Int(cmupdf_xfa_facts(handle)))
    }

    func setFormField(_ field: FormField, values: [String]) throws {
        var error = cmupdf_error()
        let result = values.withCStrings { cmupdf_set_form_field(handle, field.name, $0, Int32(values.count), &error) }
        guard result >= 0 else { throw MuPDFErrors.translate(error, doing: "set the field \(field.name)", code: .engineFailure) }
        guard result == 0 else { throw RendererError(.invalidArgument, "the form has no field named \(field.name)", backend: MuPDFErrors.backend) }
    }

    func flattenForm() throws {
        var error = cmupdf_error()
        guard cmupdf_flatten_form(handle, &error) >= 0 else { throw MuPDFErrors.translate(error, doing: "flatten the form", code: .damaged) }
    }
}
