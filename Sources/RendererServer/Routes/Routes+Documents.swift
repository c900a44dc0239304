import Foundation
import Hummingbird
import RendererIsolation
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// `GET /api/metrics`: what the server measured of itself (``ServerMetrics``), in
    /// Prometheus' text format (version 0.0.4), for a scraper that sends the token.
    @Sendable func metrics(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let bytes = self.context.metrics.exposition(
            ServerMetrics.Readings(
                queueDepth: self.context.queue.count, openWebSockets: self.context.collaboration?.sockets.count ?? 0,
                database: self.context.collaboration?.databaseUse,
                engineProcesses: (EngineProcessTally.started, EngineProcessTally.restarted)))
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: bytes))
    }

    /// `GET /api/openapi.json`: the API's OpenAPI 3.1 document, as the module ships it with
    /// this server's facts stated (``OpenAPIDocument``).
    @Sendable func openAPIDocument(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try OpenAPIDocument(rendererIDs: self.context.rendererIDs, limits: self.context.limits)
        return Self.data(document.data, type: "application/json; charset=utf-8")
    }

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
