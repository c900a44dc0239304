import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP
import RendererSignatures

/// Signatures: their verdicts, and signing with an identity the server holds. Whoever holds
/// the server's token signs with ``ServerConfiguration/signingIdentity``; a collaborator
/// signs through the collaboration routes (`RendererCollaborationServer`) with the identity
/// `CollaborationConfiguration.signingIdentities` names for the token's user. No request
/// names or carries a key.
extension Routes {
    /// `POST /api/documents/{id}/signatures`: signs the document with the server's signing
    /// identity as the body asks (``Payload/SignRequest``), in an incremental update saved
    /// over the file, and answers every field's verdict then; 201. 403 when the server holds
    /// no identity, is read-only, or the settings or the PDF forbid signing.
    @Sendable func sign(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        guard let identity = self.context.configuration.signingIdentity else {
            throw APIError.forbidden("this server was given no signing identity")
        }
        return try await signing(try await servedDocument(request, context), as: identity, request)
    }

    /// Signs `document` with `identity` as the body asks, then answers the verdicts; 201.
    func signing(_ document: ServedDocument, as identity: SigningIdentity, _ request: Request) async throws -> Response {
        let options = try await decode(Payload.SignRequest.self, from: request).options()
        _ = try await document.edit(saving: false) { session in try session.sign(with: identity, options: options) }
        return try Self.json(try await verdicts(of: document, request), status: .created, headers: Self.location(document: document.id, "signatures"))
    }

    /// Every signature field's verdict against the server's trust anchors, by the engine the
    /// request asks for.
    func verdicts(of document: ServedDocument, _ request: Request) async throws -> [SignatureVerification] {
        let renderer = try await rendererID(request, document)
        let (trust, timeLimit) = (self.context.configuration.trustAnchors, self.context.configuration.timeLimit)
        return try await self.context.queue.run {
            try await document.pool(renderer).run(timeLimit: timeLimit) { document, _ in try document.verifySignatures(trust: trust) }
        }
    }
}
