import Foundation
import Hummingbird
import RendererCollaboration
import RendererProvider
import RendererProviderXFDF
import RendererServerHTTP

/// A layer's PDF as served, the one export streamed (its XFDF, JSON-LD and PDF with the
/// layer's annotations are ``GeneratedCollaborationRoutes``').
extension CollaborationRoutes {
    /// `GET .../source.pdf`: the PDF as served, byte for byte (streamed, with byte ranges):
    /// the file the layer's base annotations were read from, which a sync client opens and
    /// brings to the layer; needs the `download` permission.
    @Sendable func sourcePDF(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let collaborator = try CollaboratorMiddleware.collaborator()
        guard collaborator.claims.permissions.contains("download") else { throw APIError.forbidden("the token does not grant download") }
        let name = URL(fileURLWithPath: collaborator.descriptor.documentID).lastPathComponent
        return try await collaborator.document.download(request, context: context, name: name)
    }
}
