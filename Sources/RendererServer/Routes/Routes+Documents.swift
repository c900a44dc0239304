import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// `GET /api/documents/{id}/file`: the PDF as it is now (with saved annotations),
    /// streamed, with byte ranges (``FileDownload``).
    @Sendable func file(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        // Only what an engine opens as a document is served whole, and only when the
        // settings let readers save it elsewhere.
        try await document.require(.saveTo)
        let version = await document.currentVersion()
        let name = URL(fileURLWithPath: document.id).lastPathComponent
        return try await FileDownload(path: document.path, name: name, eTag: Self.eTag(version, "file")).response(to: request, context: context)
    }
}
