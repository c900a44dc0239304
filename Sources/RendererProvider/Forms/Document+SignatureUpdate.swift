import Foundation

extension Document {
    /// The document's saved file with `request`'s signature laid in as an incremental update
    /// and its value left as zeros (``EngineDocument/prepareSignatureUpdate(_:of:)``), for
    /// `RendererSignatures` to sign. Needs ``Capability/sign``; `invalidArgument` when the
    /// document has unsaved changes (what is signed is the file), `unsupported` when the
    /// engine had to repair the file, whose bytes an update cannot follow.
    package func preparedSignatureUpdate(_ request: SignatureUpdateRequest) throws -> PreparedSignatureUpdate {
        try require(.sign)
        guard !hasUnsavedChanges else {
            throw RendererError(.invalidArgument, "the document has unsaved changes; save them before signing, since the file is what is signed", backend: renderer.id)
        }
        let file = try sourceData()
        return try withEngine { document, _ in
            guard document.canSaveIncrementally else {
                throw RendererError(.unsupported, "the file was repaired when it was opened, so it cannot be signed in an update; save it whole first", backend: renderer.id)
            }
            return try document.prepareSignatureUpdate(request, of: file)
        }
    }
}
