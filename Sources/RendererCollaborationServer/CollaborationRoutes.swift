import Foundation
import Hummingbird
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

    /// Registers the HTTP routes on `api` (the WebSocket upgrades through
    /// ``LayerSocket/router()``).
    package func register(on api: RouterGroup<ServerRequestContext>) {
        let layer = api.group("collab/documents/:id/layers/:layer")
        layer.get("annotations", use: collaborating(layerAnnotations))
        layer.get("changes", use: collaborating(layerChanges))
        layer.post("changes", use: collaborating(pushChanges))
        layer.get("annotations.xfdf", use: collaborating(layerXFDF))
        layer.get("annotations.jsonld", use: collaborating(layerJSONLD))
        layer.get("document.pdf", use: collaborating(layerPDF))
        layer.get("source.pdf", use: collaborating(sourcePDF))
        layer.post("signatures", use: collaborating(signAsCollaborator))
        // The events route upgrades to a WebSocket (`LayerSocket`); asked without an upgrade,
        // it says so once the token is checked.
        layer.get("events", use: collaborating { _, _, _ in throw APIError(.upgradeRequired, code: "upgrade-required", "this route is a WebSocket") })
    }

    /// `handler`, run only for a request whose token verifies for the path's document and
    /// layer and grants `read-document`, within its user's requests per second; 401, 403 and
    /// 429 (JSON) otherwise, and 404 for a layer that is not there.
    private func collaborating(
        _ handler: @escaping @Sendable (Request, ServerRequestContext, Collaborator) async throws -> Response
    ) -> @Sendable (Request, ServerRequestContext) async throws -> Response {
        { request, context in
            do {
                let collaborator = try await self.authorizedCollaborator(
                    request, token: Self.bearerToken(request), id: context.parameters.get("id"), layer: context.parameters.get("layer"))
                var response = try await handler(request, context, collaborator)
                response.headers[.init("X-Collaboration-Protocol")!] = String(collaborationProtocolVersion)
                return response
            } catch let error as LayerNotFound {
                throw APIError.notFound(error.message)
            }
        }
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

    /// `GET .../annotations`: `{"revision": N, "annotations": [StoredAnnotation]}`.
    @Sendable func layerAnnotations(_ request: Request, _ context: ServerRequestContext, _ collaborator: Collaborator) async throws -> Response {
        return try Self.json(try await collaborator.store.snapshot(collaborator.descriptor))
    }

    /// `GET .../changes?since=N`: what changed after revision N (default 0).
    @Sendable func layerChanges(_ request: Request, _ context: ServerRequestContext, _ collaborator: Collaborator) async throws -> Response {
        let since = try Self.query("since", request, as: Int.self) ?? 0
        guard since >= 0 else { throw APIError.badRequest("since must be a revision, 0 or more") }
        return try Self.json(try await collaborator.store.changes(collaborator.descriptor, since: since))
    }

    /// `POST .../changes` with a `LayerPush`: each change applied or rejected on its own.
    @Sendable func pushChanges(_ request: Request, _ context: ServerRequestContext, _ collaborator: Collaborator) async throws -> Response {
        let push = try await decode(LayerPush.self, from: request)
        let limit = backend.configuration.changesPerRequest
        guard push.changes.count <= limit else {
            throw APIError(.contentTooLarge, code: "too-large", "a push holds at most \(limit) changes; this one holds \(push.changes.count)")
        }
        // Counted in Unicode scalars, as a schema's maxLength counts.
        guard push.changes.allSatisfy({ (1...200).contains($0.operationID.unicodeScalars.count) }) else {
            throw APIError.badRequest("every change needs an operationID of 1 to 200 characters")
        }
        return try Self.json(try await apply(push.changes, for: collaborator, except: nil))
    }

    /// `POST .../signatures`: signs the file with the identity of the token's user, as the
    /// server's own signing route does; 403 when the token does not grant `sign` or the user
    /// has no identity here. The signature goes into the file, which every layer shares.
    @Sendable func signAsCollaborator(_ request: Request, _ context: ServerRequestContext, _ collaborator: Collaborator) async throws -> Response {
        guard collaborator.claims.permissions.contains("sign") else { throw APIError.forbidden("the token does not grant sign") }
        guard let identity = backend.configuration.signingIdentities[collaborator.claims.userID] else {
            throw APIError.forbidden("this server holds no signing identity for this user")
        }
        return try await collaborator.document.sign(with: identity, request)
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
