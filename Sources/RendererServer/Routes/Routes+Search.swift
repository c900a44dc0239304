import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// `GET .../search?q=&renderer=&caseSensitive=&wholeWord=&ignoreAccents=`: the hits of the whole document,
    /// streamed as JSON lines (`application/x-ndjson`) page by page, so that the first hits
    /// arrive before the last page is read; the last line is `{"done": true, ...}`. A client
    /// that goes away stops the search at the next page.
    @Sendable func search(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let renderer = try await rendererID(request, document)
        guard let term = try Self.queryText("q", request), !term.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIError.badRequest("q, the text to find, is required")
        }
        guard term.count <= 1000 else { throw APIError.badRequest("q is longer than 1000 characters") }
        let options = SearchOptions(
            caseSensitive: try Self.flag("caseSensitive", request), wholeWord: try Self.flag("wholeWord", request),
            ignoresAccents: try Self.flag("ignoreAccents", request))
        let server = self.context
        let pool = await document.pool(renderer)
        // The whole search, streamed or not, holds one place in the engine queue.
        let admission = try server.queue.admit()
        let pageCount = try await pool.run(timeLimit: server.configuration.timeLimit) { document, _ in document.pageCount }
        let body = ResponseBody { writer in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            func line(_ value: Payload.SearchLine) throws -> ByteBuffer {
                var data = try encoder.encode(value)
                data.append(0x0A)
                return ByteBuffer(bytes: data)
            }
            var hitCount = 0
            for page in 0..<pageCount {
                try Task.checkCancellation()
                // Admitted once, when it started (until the stream ends); the pool bounds how
                // many pages are read at once.
                let hits = try await pool.run(timeLimit: server.configuration.timeLimit) { document, _ in
                    try document.search(term, pageAt: page, options: options)
                }
                for hit in hits {
                    try await writer.write(try line(Payload.SearchLine(pageIndex: hit.pageIndex, quads: hit.quads)))
                }
                hitCount += hits.count
            }
            try await writer.write(try line(Payload.SearchLine(done: true, pagesSearched: pageCount, hits: hitCount)))
            try await writer.finish(nil)
            withExtendedLifetime(admission) {}  // the body holds the place until it is done
        }
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson; charset=utf-8", .cacheControl: "no-store"], body: body)
    }
}
