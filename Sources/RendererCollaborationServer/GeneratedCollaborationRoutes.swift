import Foundation
import HTTPTypes
import OpenAPIRuntime
import RendererCollaboration
import RendererLayers
import RendererProvider
import RendererServerHTTP

/// The collaboration operations whose types and registration swift-openapi-generator made
/// from the server's OpenAPI document (`make openapi`, into `Generated/`;
/// `OpenAPI/openapi-generator-config.yaml` lists them): a layer's annotations, its changes
/// and pushes, its XFDF, JSON-LD and PDF, and signing as a collaborator. The request is let
/// in by ``CollaboratorMiddleware`` before the generated code reads it, as every collaboration
/// request is; the request itself is reached through `RequestScopeMiddleware`.
struct GeneratedCollaborationRoutes: APIProtocol, GeneratedRouteSupport {
    let routes: CollaborationRoutes

    var bodyLimit: Int { routes.bodyLimit }

    /// `body` run for the collaborator ``CollaboratorMiddleware`` let in, with the request's
    /// scope; a layer that is not there is 404.
    private func collaborating<T>(_ body: (CollaborationRoutes.Collaborator, RequestScopeMiddleware.Scope) async throws -> T) async throws -> T {
        let (collaborator, scope) = (try CollaboratorMiddleware.collaborator(), try RequestScopeMiddleware.scope())
        return try await CollaboratorMiddleware.answeringMissingLayers { try await body(collaborator, scope) }
    }

    /// The layer's annotations at its revision.
    func layerAnnotations(_ input: Operations.LayerAnnotations.Input) async throws -> Operations.LayerAnnotations.Output {
        try await collaborating { collaborator, _ in
            .ok(.init(body: .json(try Self.schema(try await collaborator.store.snapshot(collaborator.descriptor)))))
        }
    }

    /// What changed after revision `since` (default 0).
    func layerChanges(_ input: Operations.LayerChanges.Input) async throws -> Operations.LayerChanges.Output {
        try await collaborating { collaborator, _ in
            let since = input.query.since ?? 0
            guard since >= 0 else { throw APIError.badRequest("since must be a revision, 0 or more") }
            return .ok(.init(body: .json(try Self.schema(try await collaborator.store.changes(collaborator.descriptor, since: since)))))
        }
    }

    /// A push of changes (``LayerPush``), each applied or rejected on its own; 413 past the
    /// changes one request may hold, 400 for an operation id of no or more than 200
    /// characters.
    func pushChanges(_ input: Operations.PushChanges.Input) async throws -> Operations.PushChanges.Output {
        try await collaborating { collaborator, _ in
            guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
            let push = try Self.library(body, as: LayerPush.self)
            let limit = routes.backend.configuration.changesPerRequest
            guard push.changes.count <= limit else {
                throw APIError(.contentTooLarge, code: "too-large", "a push holds at most \(limit) changes; this one holds \(push.changes.count)")
            }
            // Counted in Unicode scalars, as a schema's maxLength counts.
            guard push.changes.allSatisfy({ (1...200).contains($0.operationID.unicodeScalars.count) }) else {
                throw APIError.badRequest("every change needs an operationID of 1 to 200 characters")
            }
            return .ok(.init(body: .json(try Self.schema(try await routes.apply(push.changes, for: collaborator, except: nil)))))
        }
    }

    /// The layer's annotations as XFDF (what the engine can write).
    func layerXFDF(_ input: Operations.LayerXFDF.Input) async throws -> Operations.LayerXFDF.Output {
        try await collaborating { collaborator, scope in
            let annotations = try await collaborator.store.snapshot(collaborator.descriptor).annotations.map(\.annotation)
            let name = URL(fileURLWithPath: collaborator.descriptor.documentID).lastPathComponent
            let data = try await collaborator.document.withPrivateCopy(for: scope.request) { document in try document.xfdfData(annotations, fileName: name) }
            scope.answer(.contentType, "application/vnd.adobe.xfdf; charset=utf-8")
            return .ok(.init(body: .applicationVnd_adobe_xfdf(HTTPBody(data))))
        }
    }

    /// The layer as a W3C Web Annotation collection.
    func layerJSONLD(_ input: Operations.LayerJSONLD.Input) async throws -> Operations.LayerJSONLD.Output {
        try await collaborating { collaborator, scope in
            let annotations = try await collaborator.store.snapshot(collaborator.descriptor).annotations.map(\.annotation)
            let collection = WebAnnotations.collection(annotations, of: collaborator.descriptor)
            let data = try JSONSerialization.data(withJSONObject: collection, options: [.sortedKeys, .withoutEscapingSlashes])
            scope.answer(.contentType, "application/ld+json; profile=\"http://www.w3.org/ns/anno.jsonld\"")
            return .ok(.init(body: .applicationLdJson(try JSONDecoder().decode(OpenAPIObjectContainer.self, from: data))))
        }
    }

    /// The PDF with the layer's annotations in place of the file's own (those the layer
    /// deleted are gone, those it changed are changed), written by the engine `?renderer=`
    /// names; needs the `download` permission.
    func layerPDF(_ input: Operations.LayerPDF.Input) async throws -> Operations.LayerPDF.Output {
        try await collaborating { collaborator, scope in
            guard collaborator.claims.permissions.contains("download") else { throw APIError.forbidden("the token does not grant download") }
            let layer = try await collaborator.store.snapshot(collaborator.descriptor).annotations.map(\.annotation)
            let bytes = try await collaborator.document.withPrivateCopy(for: scope.request) { document in
                let own = try document.annotations()
                let kept = Set(layer.map(\.id))
                for annotation in own where !kept.contains(annotation.id) {
                    try document.removeAnnotation(withID: annotation.id, onPageAt: annotation.pageIndex)
                }
                _ = try document.importAnnotations(layer)
                let path = NSTemporaryDirectory() + "renderer-layer-\(UUID().uuidString).pdf"
                defer { try? FileManager.default.removeItem(atPath: path) }
                try document.saveCopy(to: path)
                return try Data(contentsOf: URL(fileURLWithPath: path))
            }
            let name = URL(fileURLWithPath: collaborator.descriptor.documentID).deletingPathExtension().lastPathComponent
                .replacingOccurrences(of: "\"", with: "")
            scope.answer(.contentDisposition, "attachment; filename=\"\(name)-layer.pdf\"")
            return .ok(.init(body: .pdf(HTTPBody(bytes))))
        }
    }

    /// Signs the file with the identity of the token's user, as the server's own signing
    /// route does; 403 when the token does not grant `sign` or the user has no identity
    /// here. The signature goes into the file, which every layer shares.
    func signAsCollaborator(_ input: Operations.SignAsCollaborator.Input) async throws -> Operations.SignAsCollaborator.Output {
        try await collaborating { collaborator, scope in
            guard collaborator.claims.permissions.contains("sign") else { throw APIError.forbidden("the token does not grant sign") }
            guard let identity = routes.backend.configuration.signingIdentities[collaborator.claims.userID] else {
                throw APIError.forbidden("this server holds no signing identity for this user")
            }
            guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
            let signed = try await collaborator.document.sign(with: identity, asked: try JSONEncoder().encode(body), scope.request)
            scope.answer(.location, signed.location)
            return .created(.init(body: .json(try Self.schema(signed.verdicts))))
        }
    }
}
