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
    /// Signs `document` with `identity` as `options` ask, in an incremental update saved over
    /// the file, and answers every field's verdict then (by the engine `request` names).
    func signed(_ document: ServedDocument, as identity: SigningIdentity, options: SigningOptions, _ request: Request) async throws -> [SignatureVerification] {
        _ = try await document.edit(saving: false) { session in try session.sign(with: identity, options: options) }
        return try await verdicts(of: document, request)
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
