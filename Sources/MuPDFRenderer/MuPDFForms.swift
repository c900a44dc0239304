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

/// A text or choice field's value is written into its dictionary over the object
/// primitives, which MuPDF's form reads, and MuPDF draws its widgets anew from it; the rest
/// of form filling is `FormFieldWriting`'s, shared with Poppler.
extension MuPDFDocument: FormFieldWriting {
    func writeField(_ value: FormFieldValue, named name: String) throws {
        for (key, entry) in value.entries {
            try setEntry(key, of: value.field, to: entry)
        }
        let widgets = value.widgets.map { Int32($0.reference.number) }
        let pages = value.widgets.map { Int32($0.pageIndex ?? -1) }
        var error = cmupdf_error()
        guard cmupdf_draw_widgets(handle, widgets, pages, Int32(widgets.count), &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "draw the widgets of the field \(name)", code: .engineFailure)
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
