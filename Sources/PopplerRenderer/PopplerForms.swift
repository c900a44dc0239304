import EngineSupport
import RendererProvider

extension PopplerDocument {
    func signatureFields() throws -> [SignatureField] {
        try core().signatureFields()
    }

    func formFields() throws -> [FormField] {
        try core().withFormFieldRecords { try FormField.fields(from: $0) { try loadPage(at: $0).pageSpace() } }
    }
}
