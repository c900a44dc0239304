import CPopplerBridge
import EngineSupport
import RendererProvider

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
        core.xfaFacts()
    }

    func setFormField(_ field: FormField, values: [String]) throws {
        defer { coreChanged() }
        let (code, reason): (RendererError.Code, String)
        let target = try terminalField(named: field.name)
        if target.type == "Btn" { return try setButton(target, to: values.first ?? "Off") }
        switch core.setFormField(target, values: values) {
        case Int32(CPOPPLER_OK.rawValue): return
        case Int32(CPOPPLER_ARGUMENT.rawValue): (code, reason) = (.invalidArgument, "Poppler does not take that value for the field \(field.name)")
        case Int32(CPOPPLER_UNSUPPORTED.rawValue): (code, reason) = (.unsupported, "Poppler's form does not hold the field \(field.name)")
        default: (code, reason) = (.limitExceeded, "out of memory setting the field \(field.name)")
        }
        throw RendererError(code, reason, backend: PopplerErrors.backend)
    }
}
