import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// `GET /api/documents/{id}/attachments/{index}`: one attachment's bytes, when the
    /// settings let readers save the document elsewhere (`saveTo`). Always a download, never
    /// shown: `application/octet-stream`, `nosniff`, a sandbox policy and its safe file name,
    /// so that an HTML or SVG file inside a PDF cannot run as a page of this server.
    @Sendable func attachmentContents(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        try await document.require(.saveTo)
        guard let text = context.parameters.get("index"), let index = Int(text), index >= 0 else {
            throw APIError.badRequest("the attachment must be an index from 0 (the first of the list)")
        }
        let (name, bytes) = try await engineWork(request, context) { document, _ -> (String, Data) in
            let attachments = try document.attachments()
            guard attachments.indices.contains(index) else { throw APIError.notFound("the document has no attachment \(index)") }
            return (attachments[index].safeFileName ?? "attachment-\(index + 1)", try document.attachmentContents(at: index))
        }
        return Self.sandboxedDownload(bytes, type: "application/octet-stream", name: name)
    }
}
