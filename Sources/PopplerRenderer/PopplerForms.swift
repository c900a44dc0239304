import CAnnotationRecord
import CPopplerBridge
import EngineSupport
import RendererEngine

extension PopplerDocument {
    func signatureFields() throws -> [SignatureField] {
        try listSignatureFields()
    }

    func formFields() throws -> [FormField] {
        try listFormFields()
    }

    func validationData() throws -> ValidationData {
        try readValidationData()
    }
}

extension PopplerDocument {
    func xfaFacts() throws -> XFAFacts {
        core.catalogXFAFacts()
    }

    func setFormField(_ field: FormField, values: [String]) throws {
        defer { coreChanged() }
        try fill(field, values: values)
    }

    /// Drawn over the PDF-object primitives (`flattenWidgets()`), with the appearances the
    /// widgets' objects hold: Poppler writes a field's appearance into them as it fills it.
    /// Its catalog keeps the form and the pages once read, so the core twin is read again.
    func flattenForm() throws {
        try editingStructure { _ in _ = try flattenWidgets() }
    }
}

/// Poppler's form API is given a text or choice field's value and draws its widgets anew
/// (its fields keep the value they hold and draw from it, so it cannot be written around
/// them); the entries the value is written as are then written over the object
/// primitives, as for every engine. The rest of form filling is `FormFieldWriting`'s,
/// shared with MuPDF.
extension PopplerDocument: FormFieldWriting {
    func writeField(_ value: FormFieldValue, named name: String) throws {
        let (code, reason): (RendererError.Code, String)
        switch core.setFormField(value) {
        case Int32(CPOPPLER_OK.rawValue):
            for (key, entry) in value.entries { try setEntry(key, of: value.field, to: entry) }
            return
        case Int32(CPOPPLER_ARGUMENT.rawValue): (code, reason) = (.invalidArgument, "Poppler does not take that value for the field \(name)")
        case Int32(CPOPPLER_UNSUPPORTED.rawValue): (code, reason) = (.unsupported, "Poppler's form does not hold the field \(name)")
        default: (code, reason) = (.limitExceeded, "out of memory setting the field \(name)")
        }
        throw RendererError(code, reason, rendererID: PopplerErrors.rendererID)
    }
}
