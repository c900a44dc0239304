import Foundation
import Hummingbird
import RendererCollaboration
import RendererProvider
import RendererProviderXFDF
import RendererServerHTTP

/// A layer out of the server: as XFDF, as W3C Web Annotation JSON-LD, as the PDF with the
/// layer's annotations written in by an engine, and the PDF as served.
extension CollaborationRoutes {
    /// `GET .../annotations.xfdf`: the layer's annotations as XFDF (what the engine can write).
    @Sendable func layerXFDF(_ request: Request, _ context: ServerRequestContext, _ collaborator: Collaborator) async throws -> Response {
        let annotations = try await collaborator.store.snapshot(collaborator.descriptor).annotations.map(\.annotation)
        let name = URL(fileURLWithPath: collaborator.descriptor.documentID).lastPathComponent
        let data = try await collaborator.document.withPrivateCopy(for: request) { document in try document.xfdfData(annotations, fileName: name) }
        return Self.data(data, type: "application/vnd.adobe.xfdf; charset=utf-8")
    }

    /// `GET .../annotations.jsonld`: the layer as a W3C Web Annotation collection.
    @Sendable func layerJSONLD(_ request: Request, _ context: ServerRequestContext, _ collaborator: Collaborator) async throws -> Response {
        let annotations = try await collaborator.store.snapshot(collaborator.descriptor).annotations.map(\.annotation)
        let collection = WebAnnotations.collection(annotations, of: collaborator.descriptor)
        let data = try JSONSerialization.data(withJSONObject: collection, options: [.sortedKeys, .withoutEscapingSlashes])
        return Self.data(data, type: "application/ld+json; profile=\"http://www.w3.org/ns/anno.jsonld\"")
    }

    /// `GET .../document.pdf?renderer=`: the PDF with the layer's annotations in place of the
    /// file's own (those the layer deleted are gone, those it changed are changed), written
    /// by the engine; needs the `download` permission.
    @Sendable func layerPDF(_ request: Request, _ context: ServerRequestContext, _ collaborator: Collaborator) async throws -> Response {
        guard collaborator.claims.permissions.contains("download") else { throw APIError.forbidden("the token does not grant download") }
        let layer = try await collaborator.store.snapshot(collaborator.descriptor).annotations.map(\.annotation)
        let bytes = try await collaborator.document.withPrivateCopy(for: request) { document in
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
        return Self.data(bytes, type: "application/pdf", headers: [.contentDisposition: "attachment; filename=\"\(name)-layer.pdf\""])
    }

    /// `GET .../source.pdf`: the PDF as served, byte for byte (streamed, with byte ranges):
    /// the file the layer's base annotations were read from, which a sync client opens and
    /// brings to the layer; needs the `download` permission.
    @Sendable func sourcePDF(_ request: Request, _ context: ServerRequestContext, _ collaborator: Collaborator) async throws -> Response {
        guard collaborator.claims.permissions.contains("download") else { throw APIError.forbidden("the token does not grant download") }
        let name = URL(fileURLWithPath: collaborator.descriptor.documentID).lastPathComponent
        return try await collaborator.document.download(request, context: context, name: name)
    }
}
