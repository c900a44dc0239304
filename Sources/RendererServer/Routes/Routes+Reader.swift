import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

/// The reader's state: each reader's bookmarks, page, zoom and scroll position in each
/// document, in the server's ``ReaderStates``: they come back on reload and after a restart,
/// and one reader never sees another's.
extension Routes {
    /// `POST .../bookmarks` with `{"pageIndex": 2, "title": "..."}`: 201 with the bookmark, and
    /// its path in `Location`.
    @Sendable func addBookmark(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let (document, reader) = try await readerDocument(request, context)
        let new = try await decode(Payload.NewBookmark.self, from: request)
        guard new.title.count <= 1000 else { throw APIError.badRequest("a bookmark's title is at most 1000 characters") }
        let pageCount = try await document.pageCount()
        let bookmark = try await self.context.readers.addBookmark(
            pageIndex: new.pageIndex, title: new.title, pageCount: pageCount, reader: reader, document: document.id)
        return try Self.json(bookmark, status: .created, headers: Self.location(document: document.id, "bookmarks", bookmark.id))
    }

    /// `DELETE .../bookmarks/{bookmark}`: 204, or 404 when the reader has no such bookmark.
    @Sendable func removeBookmark(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let (document, reader) = try await readerDocument(request, context)
        let id = try Self.pathParameter("bookmark", context)
        try await self.context.readers.removeBookmark(id: id, reader: reader, document: document.id)
        return Response(status: .noContent)
    }

    /// `PUT .../state` with a viewing state: where the reader is now; answers it as kept.
    @Sendable func setViewingState(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let (document, reader) = try await readerDocument(request, context)
        let viewing = try await decode(ViewingState.self, from: request)
        let pageCount = try await document.pageCount()
        try await self.context.readers.setViewingState(viewing, pageCount: pageCount, reader: reader, document: document.id)
        return try Self.json(viewing)
    }

    /// The path's document, once the request is let in, and the reader it comes from.
    func readerDocument(_ request: Request, _ context: ServerRequestContext) async throws -> (ServedDocument, String) {
        let reader = try self.context.readers.reader(of: request)
        return (try await servedDocument(request, context), reader)
    }
}
