import CMuPDF
import EngineSupport
import RendererProvider

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

extension MuPDFDocument {
    func xfaFacts() -> XFAFacts {
        XFAFacts(rawValue: Int(cmupdf_xfa_facts(handle)))
    }

    func setFormField(_ field: FormField, values: [String]) throws {
        let target = try terminalField(named: field.name)
        if target.type == "Btn" { return try setButton(target, to: values.first ?? "Off") }
        guard let reference = target.reference else {
            throw RendererError(.unsupported, "the field \(field.name) is written inside another object", backend: MuPDFErrors.backend)
        }
        let widgets = target.widgets.filter { $0.reference != nil }
        let numbers = widgets.map { Int32($0.reference!.number) }
        let pages = widgets.map { Int32($0.pageIndex ?? -1) }
        var error = cmupdf_error()
        let ok = numbers.withUnsafeBufferPointer { numbers in
            pages.withUnsafeBufferPointer { pages in
                values.withCStrings { strings in
                    var named = cmupdf_field_target(
                        field: Int32(reference.number), type: nil, flags: Int32(truncatingIfNeeded: target.flags), widgets: numbers.baseAddress, pages: pages.baseAddress,
                        widget_count: Int32(numbers.count))
                    let type: String = target.type ?? ""
                    return type.withCString { type in
                        named.type = type
                        return cmupdf_set_form_field(handle, &named, strings, Int32(values.count), &error)
                    }
                }
            }
        }
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "set the field \(field.name)", code: .engineFailure) }
    }

    func flattenForm() throws {
        var error = cmupdf_error()
        guard cmupdf_flatten_form(handle, &error) >= 0 else { throw MuPDFErrors.translate(error, doing: "flatten the form", code: .damaged) }
    }
}
