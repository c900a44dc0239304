import Foundation
import Hummingbird
import RendererProvider
import RendererSignatures

extension Routes {
    /// `GET /api/documents/{id}/signatures`: each signature field's verdict with its reasons
    /// (``SignatureVerification``), against the trust anchors the server was given.
    @Sendable func signatures(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let trust = self.context.configuration.trustAnchors
        return try Self.json(try await engineWork(request, context) { document, _ in try document.verifySignatures(trust: trust) })
    }

    /// `POST /api/documents/{id}/signatures`: signs the document with the server's signing
    /// identity as the body asks (``Payload/SignRequest``), in an incremental update saved
    /// over the file, and answers every field's verdict then; 201. 403 when the server holds
    /// no identity, is read-only, or the settings or the PDF forbid signing.
    @Sendable func sign(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard let identity = self.context.configuration.signingIdentity else {
            throw APIError.forbidden("this server was given no signing identity")
        }
        let document = try await servedDocument(request, context)
        let options = try await decode(Payload.SignRequest.self, from: request).options()
        _ = try await document.edit(saving: false) { session in try session.sign(with: identity, options: options) }
        let trust = self.context.configuration.trustAnchors
        return try Self.json(try await engineWork(request, context) { document, _ in try document.verifySignatures(trust: trust) }, status: .created)
    }
}
