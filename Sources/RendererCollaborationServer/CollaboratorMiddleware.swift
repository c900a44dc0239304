import Hummingbird
import RendererCollaboration
import RendererLayers
import RendererServerHTTP

/// Lets a collaboration request in before its route reads anything of it: its token must
/// verify for the path's document and layer and grant `read-document`, within its user's
/// requests per second (``CollaborationRoutes/authorizedCollaborator(_:token:id:layer:counting:)``:
/// 401, 403 and 429 otherwise, 404 for a document the server does not serve). The route then
/// finds its collaborator with ``collaborator()``; its answer says the protocol's version
/// (`X-Collaboration-Protocol`).
struct CollaboratorMiddleware: RouterMiddleware {
    let routes: CollaborationRoutes

    @TaskLocal private static var current: CollaborationRoutes.Collaborator?

    func handle(_ request: Request, context: ServerRequestContext, next: (Request, ServerRequestContext) async throws -> Response) async throws -> Response {
        let collaborator = try await Self.answeringMissingLayers {
            try await routes.authorizedCollaborator(
                request, token: CollaborationRoutes.bearerToken(request), id: context.parameters.get("id"), layer: context.parameters.get("layer"))
        }
        var response = try await Self.$current.withValue(collaborator) { try await next(request, context) }
        response.headers[.init("X-Collaboration-Protocol")!] = String(collaborationProtocolVersion)
        return response
    }

    /// The collaborator this middleware let in for the request being answered; one reached
    /// without it is the server's own fault (500).
    static func collaborator() throws -> CollaborationRoutes.Collaborator {
        guard let current else { throw APIError(.internalServerError, code: "internal", "a collaboration route ran outside its request") }
        return current
    }

    /// `body`'s result, with a layer it finds missing answered 404.
    static func answeringMissingLayers<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as LayerNotFound {
            throw APIError.notFound(error.message)
        }
    }
}
