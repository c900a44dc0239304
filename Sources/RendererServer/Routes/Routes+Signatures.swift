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
}
