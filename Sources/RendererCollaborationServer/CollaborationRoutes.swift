import Foundation
import Hummingbird
import OpenAPIHummingbird
import RendererCollaboration
import RendererLayers
import RendererProvider
import RendererProviderXFDF
import RendererServerHTTP

/// The collaboration routes, under `/api/collab/documents/{id}/layers/{layer}/`: a layer's
/// annotations, its changes since a revision, pushes of changes, its exports
/// (`CollaborationRoutes+Exports.swift`) and its WebSocket (``LayerSocket``). Each request
/// carries a collaboration token (`Authorization: Bearer JWT`) for that document and layer;
/// the server's own token is not taken here. Authorship comes from the token's `sub` only.
/// A server mounts them with ``register(on:)`` over its ``CollaborationBackend`` and its
/// documents (``CollaborationHost``).
package struct CollaborationRoutes: RouteSupport {
    let backend: CollaborationBackend
    let host: any CollaborationHost
    package let bodyLimit: Int

    /// The routes over `backend`, reading `host`'s documents, taking bodies of at most
    /// `bodyLimit` bytes.
    package init(backend: CollaborationBackend, host: any CollaborationHost, bodyLimit: Int) {
        self.backend = backend
        self.host = host
        self.bodyLimit = bodyLimit
    }

    /// What an authorized collaboration request works on.
    struct Collaborator: Sendable {
        var descriptor: DocumentDescriptor
        var claims: CollaborationClaims
        var document: any CollaboratedDocument
        var store: any LayerStorage

        /// Whether the token is still good at `now`: not expired, and not revoked since it
        /// was checked (a WebSocket asks before each message).
        func tokenIsCurrent(_ policy: TokenPolicy, at now: Date = Date()) -> Bool {
            guard claims.exp.value > now else { return false }
            guard let id = claims.jti?.value, let revocations = policy.revocations else { return true }
            return !revocations.contains(id)
        }
    }

    /// Registers the HTTP routes on `router`, under `/api/collab/documents/{id}/layers/{layer}/`:
    /// those generated from the OpenAPI document (``GeneratedCollaborationRoutes``), and by
    /// hand the layer's source file (streamed, with byte ranges) and its events route (the
    /// WebSocket upgrades through ``LayerSocket/router()``).
    package func register(on router: Router<ServerRequestContext>) {
        let layer = router.group("api/collab/documents/:id/layers/:layer")
        layer.add(middleware: CollaboratorMiddleware(routes: self))
        layer.get("source.pdf", use: sourcePDF)
        // The events route upgrades to a WebSocket (`LayerSocket`); asked without an upgrade,
        // it says so once the token is checked.
        layer.get("events") { _, _ -> Response in throw APIError(.upgradeRequired, code: "upgrade-required", "this route is a WebSocket") }

        // Their paths hold the `/api` prefix. Registering throws only for a server URL it
        // cannot read, and the document's is `/`.
        let generated = router.group()
        generated.add(middleware: NoStoreMiddleware())
        generated.add(middleware: CollaboratorMiddleware(routes: self))
        generated.add(middleware: BodyLimitMiddleware(limit: bodyLimit))
        generated.add(middleware: RequestScopeMiddleware())
        try! GeneratedCollaborationRoutes(routes: self).registerHandlers(on: generated, configuration: GeneratedCollaborationRoutes.configuration)
    }

    /// What a collaboration request may work on: the document and layer of its path (`id`
    /// and `layer`, percent-encoded), once its token verifies for them and grants
    /// `read-document`, within its user's requests per second (counted unless `counting` is
    /// false: a request checked again); the layer is created from the PDF's own annotations
    /// the first time. Throws 401, 403, 404 and 429 as `APIError`s.
    func authorizedCollaborator(_ request: Request, token: String?, id: String?, layer: String?, counting: Bool = true) async throws -> Collaborator {
        let descriptor: DocumentDescriptor
        do {
            guard let id = id?.removingPercentEncoding, let layer = layer?.removingPercentEncoding else {
                throw APIError.badRequest("the document and layer must be percent-encoded path segments")
            }
            descriptor = try DocumentDescriptor(documentID: id, layer: layer)
        } catch let error as RendererError {
            throw APIError.badRequest(error.message)
        }
        guard let token else { throw APIError.unauthorized() }
        let claims: CollaborationClaims
        do {
            claims = try await backend.configuration.tokens.verify(token, for: descriptor, policy: backend.configuration.policy)
        } catch {
            throw APIError.unauthorized(error.message)
        }
        if counting { try await backend.limiter.admit(claims.userID) }
        guard claims.permissions.contains("read-document") else {
            throw APIError.forbidden("the token does not grant read-document")
        }
        let document = try await host.document(descriptor.documentID, for: request)
        let collaborator = Collaborator(descriptor: descriptor, claims: claims, document: document, store: backend.store)
        try await ensureLayer(collaborator)
        return collaborator
    }

    /// Creates the layer from the PDF's own annotations the first time it is asked for.
    private func ensureLayer(_ collaborator: Collaborator) async throws {
        guard try await !collaborator.store.exists(collaborator.descriptor) else { return }
        let base = try await collaborator.document.annotations()
        try await collaborator.store.create(collaborator.descriptor, base: base)
    }

    /// Applies `changes` of `collaborator` in order, each on its own, and sends each applied
    /// one to the layer's WebSockets but `sender`'s.
    func apply(_ changes: [LayerChange], for collaborator: Collaborator, except sender: UUID?) async throws -> PushResult {
        let pageCount = try await collaborator.document.pageCount()
        let (user, permissions) = (collaborator.claims.userID, collaborator.claims.collaborationPermissions)
        var results: [ChangeResult] = []
        for change in changes {
            let result = try await collaborator.store.apply(change, to: collaborator.descriptor, user: user, permissions: permissions) { annotation in
                try LayerAnnotationRules.check(annotation, pageCount: pageCount)
            }
            results.append(result)
            if result.status == .applied {
                let event = LayerEvent(type: "change", revision: result.revision, action: change.action, annotation: result.annotation, user: user)
                await backend.events.publish(event.json, to: collaborator.descriptor, except: sender)
            }
        }
        return PushResult(revision: try await collaborator.store.revision(collaborator.descriptor), results: results)
    }
}
