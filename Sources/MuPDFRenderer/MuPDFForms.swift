import CAnnotationRecord
import CMuPDF
import EngineSupport
import RendererEngine

extension MuPDFDocument {
    /// Other formats have no form.
    func signatureFields() throws -> [SignatureField] {
        contentType == .pdf ? try listSignatureFields() : []
    }

    func formFields() throws -> [FormField] {
        contentType == .pdf ? try listFormFields() : []
    }

    func validationData() throws -> ValidationData {
        contentType == .pdf ? try readValidationData() : ValidationData()
    }
}

/// MuPDF writes a text or choice field's value and draws its widgets anew; the rest of form
/// filling is `FormFieldWriting`'s, shared with Poppler.
extension MuPDFDocument: FormFieldWriting {
    func writeField(_ value: UnsafePointer<form_field_value>, named name: String) throws {
        var error = cmupdf_error()
        guard cmupdf_set_form_field(handle, value, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "set the field \(name)", code: .engineFailure)
        }
    }
}

extension MuPDFDocument {
    /// Other formats have no form.
    func xfaFacts() -> XFAFacts {
        contentType == .pdf ? catalogXFAFacts() : []
    }

    func setFormField(_ field: FormField, values: [String]) throws {
        try fill(field, values: values)
    }

    /// MuPDF brings each widget's appearance up to date; the widgets are then drawn into the
    /// pages over the PDF-object primitives (`flattenWidgets()`), as for every engine.
    func flattenForm() throws {
        var error = cmupdf_error()
        guard cmupdf_update_widget_appearances(handle, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "draw the form's widgets", code: .damaged)
        }
        try flattenWidgets()
    }
}
