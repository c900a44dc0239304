import Foundation
import Hummingbird
import RendererProvider
import RendererProviderXFDF
import RendererServerHTTP

/// The annotations as XFDF, out and in. Hand-written still: the import reads its body
/// whatever its media type says, where the generated code would refuse one the document does
/// not list (`application/vnd.adobe.xfdf`, `application/xml`) with 415.
extension Routes {
    /// `GET .../annotations.xfdf`: every annotation as XFDF.
    @Sendable func exportXFDF(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let name = URL(fileURLWithPath: document.id).lastPathComponent
        let data = try await document.withSession { try $0.xfdfData(fileName: name) }
        return Self.data(data, type: "application/vnd.adobe.xfdf; charset=utf-8")
    }

    /// `POST .../annotations.xfdf`: imports the XFDF in the body and saves the file.
    @Sendable func importXFDF(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let data = try await body(request)
        let result = try await document.edit { try $0.importXFDF(data) }
        return try Self.json(Payload.ImportSummary(imported: result.imported, skipped: result.skipped))
    }
}
