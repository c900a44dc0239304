import Foundation
import Hummingbird
import RendererCollaboration
import RendererProvider
import RendererProviderXFDF

/// A layer out of the server: as XFDF, as W3C Web Annotation JSON-LD, and as the PDF with
/// the layer's annotations written in by an engine.
extension Routes {
    /// `GET .../annotations.xfdf`: the layer's annotations as XFDF (what the engine can write).
    @Sendable func layerXFDF(_ request: Request, _ context: BasicRequestContext, _ collaborator: Collaborator) async throws -> Response {
        let annotations = try await collaborator.store.snapshot(collaborator.descriptor).annotations.map(\.annotation)
        let name = URL(fileURLWithPath: collaborator.descriptor.documentID).lastPathComponent
        let data = try await inProcessDocument(request, collaborator) { document in try document.xfdfData(annotations, fileName: name) }
        return Self.data(data, type: "application/vnd.adobe.xfdf; charset=utf-8")
    }

    /// `GET .../annotations.jsonld`: the layer as a W3C Web Annotation collection.
    @Sendable func layerJSONLD(_ request: Request, _ context: BasicRequestContext, _ collaborator: Collaborator) async throws -> Response {
        let annotations = try await collaborator.store.snapshot(collaborator.descriptor).annotations.map(\.annotation)
        let collection = WebAnnotations.collection(annotations, of: collaborator.descriptor)
        let data = try JSONSerialization.data(withJSONObject: collection, options: [.sortedKeys, .withoutEscapingSlashes])
        return Self.data(data, type: "application/ld+json; profile=\"http://www.w3.org/ns/anno.jsonld\"")
    }

    /// `GET .../document.pdf?engine=`: the PDF with the layer's annotations in place of the
    /// file's own (those the layer deleted are gone, those it changed are changed), written
    /// by the engine; needs the `download` permission.
    @Sendable func layerPDF(_ request: Request, _ context: BasicRequestContext, _ collaborator: Collaborator) async throws -> Response {
        guard collaborator.claims.permissions.contains("download") else { throw APIError.forbidden("the token does not grant download") }
        let layer = try await collaborator.store.snapshot(collaborator.descriptor).annotations.map(\.annotation)
        let bytes = try await inProcessDocument(request, collaborator) { document in
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

    /// `GET .../source.pdf`: the PDF as served, byte for byte (streamed, with byte ranges:
    /// ``FileDownload``): the file the layer's base annotations were read from, which a sync
    /// client opens and brings to the layer; needs the `download` permission.
    @Sendable func sourcePDF(_ request: Request, _ context: BasicRequestContext, _ collaborator: Collaborator) async throws -> Response {
        guard collaborator.claims.permissions.contains("download") else { throw APIError.forbidden("the token does not grant download") }
        let version = await collaborator.document.currentVersion()
        let name = URL(fileURLWithPath: collaborator.descriptor.documentID).lastPathComponent
        return try await FileDownload(path: collaborator.document.path, name: name, eTag: Self.eTag(version, "file"))
            .response(to: request, context: context)
    }

    /// Runs `body` on an engine thread with a document of its own, opened through the
    /// request's engine: one that is changed and dropped, never a pool's.
    private func inProcessDocument<T: Sendable>(
        _ request: Request, _ collaborator: Collaborator, _ body: @escaping @Sendable (Document) throws -> T
    ) async throws -> T {
        let renderer = try await rendererID(request, collaborator.document)
        let (path, context, password) = (collaborator.document.path, self.context, await collaborator.document.openingPassword)
        return try await context.queue.run {
            try await naming(path, as: collaborator.descriptor.documentID) {
                try await context.threads.run { _ in
                    try body(try context.openDocument(path, renderer: .id(renderer), password: password))
                }
            }
        }
    }
}

/// Annotations as W3C Web Annotations (the Web Annotation Data Model, JSON-LD): each one a
/// textual body (its contents) and a target, the document, with a fragment selector of
/// RFC 3778 (`page=N&viewrect=left,top,width,height`, in points from the page's top-left).
enum WebAnnotations {
    static func collection(_ annotations: [Annotation], of descriptor: DocumentDescriptor) -> [String: Any] {
        let items = annotations.map { item($0, of: descriptor) }
        return [
            "@context": "http://www.w3.org/ns/anno.jsonld",
            "type": "AnnotationCollection",
            "label": "\(descriptor.documentID), layer \(descriptor.layer)",
            "total": items.count,
            "first": ["type": "AnnotationPage", "startIndex": 0, "items": items] as [String: Any],
        ]
    }

    static func item(_ annotation: Annotation, of descriptor: DocumentDescriptor) -> [String: Any] {
        let dates = ISO8601DateFormatter()
        let rect = annotation.rect
        let viewrect = [rect.minX, rect.minY, rect.size.width, rect.size.height].map { String(format: "%.2f", $0) }.joined(separator: ",")
        var item: [String: Any] = [
            "id": "urn:renderer-provider:annotation:\(annotation.id)",
            "type": "Annotation",
            "motivation": annotation.kind == .highlight ? "highlighting" : "commenting",
            "target": [
                "source": descriptor.documentID,
                "selector": [
                    "type": "FragmentSelector", "conformsTo": "http://tools.ietf.org/rfc/rfc3778",
                    "value": "page=\(annotation.pageIndex + 1)&viewrect=\(viewrect)",
                ],
            ] as [String: Any],
            "pdfAnnotationKind": annotation.kind.rawValue,
        ]
        if let contents = annotation.contents, !contents.isEmpty {
            item["body"] = ["type": "TextualBody", "value": contents, "format": "text/plain", "purpose": "commenting"]
        }
        if let author = annotation.author { item["creator"] = ["type": "Person", "nickname": author] }
        if let created = annotation.creationDate { item["created"] = dates.string(from: created) }
        if let modified = annotation.modificationDate { item["modified"] = dates.string(from: modified) }
        return item
    }
}
