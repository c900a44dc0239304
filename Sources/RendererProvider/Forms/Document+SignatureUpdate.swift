#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Document {
    /// The document's saved file with `request`'s signature laid in as an incremental update
    /// and its value left as zeros (``DocumentSigning/prepareSignatureUpdate(_:of:)``), for
    /// `RendererSignatures` to sign. See ``withSavedFile(_:)`` for what is refused.
    package func preparedSignatureUpdate(_ request: SignatureUpdateRequest) throws -> PreparedSignatureUpdate {
        try withSavedFile { document, file in try document.prepareSignatureUpdate(request, of: file) }
    }

    /// The document's saved file with `data` added to its document security store in an
    /// incremental update (``DocumentSigning/prepareValidationDataUpdate(_:of:)``). See
    /// ``withSavedFile(_:)`` for what is refused.
    package func preparedValidationDataUpdate(_ data: ValidationData) throws -> Data {
        try withSavedFile { document, file in try document.prepareValidationDataUpdate(data, of: file) }
    }

    /// What the document security store (`/DSS`) holds: the certificates, certificate
    /// revocation lists and OCSP responses kept to check signatures in the long term (as
    /// written, nothing checked); empty without a store. Needs `Capability.sign`.
    public func validationData() throws -> ValidationData {
        try withEngine(as: DocumentSigning.self, needing: .sign) { document, _ in try document.validationData() }
    }

    /// Runs `body` with the engine document and the file's bytes, for an update that follows
    /// them. Needs ``Capability/sign``; `invalidArgument` when the document has unsaved
    /// changes (what is signed is the file), `unsupported` when the engine had to repair the
    /// file, whose bytes an update cannot follow.
    private func withSavedFile<T: Sendable>(_ body: (any DocumentSigning, Data) throws -> T) throws -> T {
        try require(.sign)
        guard !hasUnsavedChanges else {
            throw RendererError(.invalidArgument, "the document has unsaved changes; save them before signing, since the file is what is signed", rendererID: renderer.id)
        }
        let file = try sourceData()
        return try withEngine(as: DocumentSigning.self, needing: nil) { document, _ in
            guard document.canSaveIncrementally else {
                throw RendererError(.unsupported, "the file was repaired when it was opened, so it cannot be signed in an update; save it whole first", rendererID: renderer.id)
            }
            return try body(document, file)
        }
    }
}
