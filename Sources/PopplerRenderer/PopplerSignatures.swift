import RendererProvider

extension PopplerDocument {
    func signatureFields() throws -> [SignatureField] {
        try core().signatureFields()
    }
}
