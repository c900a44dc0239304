import Foundation
import Hummingbird
import RendererProvider

/// The reader's state: a browser tab is a session, so its bookmarks, page and zoom live in
/// the server's ``ReadingSession`` for the document and come back on reload.
extension Routes {
    /// `GET .../bookmarks`.
    @Sendable func bookmarks(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        return try Self.json(try await document.bookmarks())
    }

    /// `POST .../bookmarks` with `{"pageIndex": 2, "title": "..."}`: 201 with the bookmark.
    @Sendable func addBookmark(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let new = try await decode(Payload.NewBookmark.self, from: request)
        guard new.title.count <= 1000 else { throw APIError.badRequest("a bookmark's title is at most 1000 characters") }
        let bookmark = try await document.addBookmark(pageIndex: new.pageIndex, title: new.title)
        return try Self.json(bookmark, status: .created)
    }

    /// `DELETE .../bookmarks/{bookmark}`: 204.
    @Sendable func removeBookmark(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let id = try Self.pathParameter("bookmark", context)
        try await document.removeBookmark(id: id)
        return Response(status: .noContent)
    }

    /// `GET .../state`: the page, zoom and scroll position the reader left the document at.
    @Sendable func viewingState(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        return try Self.json(try await document.viewingState())
    }

    /// `PUT .../state` with a viewing state: where the reader is now.
    @Sendable func setViewingState(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let state = try await decode(ViewingState.self, from: request)
        guard state.zoom.isFinite, state.zoom > 0, state.zoom <= 64 else { throw APIError.badRequest("zoom must be above 0 and at most 64") }
        let stored = try await document.setViewingState(state)
        return try Self.json(stored)
    }
}
