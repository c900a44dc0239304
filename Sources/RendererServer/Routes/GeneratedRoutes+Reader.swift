import Foundation
import OpenAPIRuntime
import RendererProvider
import RendererServerHTTP

/// The reader's state: each reader's bookmarks, page, zoom and scroll position in each
/// document, in the server's ``ReaderStates``: they come back on reload and after a restart,
/// and one reader never sees another's.
extension GeneratedRoutes {
    /// The reader's bookmarks, by page.
    func bookmarks(_ input: Operations.Bookmarks.Input) async throws -> Operations.Bookmarks.Output {
        let (document, reader) = try await readerDocument()
        return .ok(.init(body: .json(try Self.schema(try await context.readers.bookmarks(reader: reader, document: document.id)))))
    }

    /// The page, zoom and scroll position the reader left the document at.
    func viewingState(_ input: Operations.ViewingState.Input) async throws -> Operations.ViewingState.Output {
        let (document, reader) = try await readerDocument()
        let pageCount = try await document.pageCount()
        return .ok(.init(body: .json(try Self.schema(try await context.readers.viewingState(pageCount: pageCount, reader: reader, document: document.id)))))
    }

    /// Adds a bookmark (`{"pageIndex": 2, "title": "..."}`): 201 with the bookmark, and its
    /// path in `Location`.
    func addBookmark(_ input: Operations.AddBookmark.Input) async throws -> Operations.AddBookmark.Output {
        let (document, reader) = try await readerDocument()
        guard case .json(let new) = input.body else { throw APIError.badRequest("the body is not JSON") }
        guard new.title.count <= 1000 else { throw APIError.badRequest("a bookmark's title is at most 1000 characters") }
        let pageCount = try await document.pageCount()
        let bookmark = try await context.readers.addBookmark(
            pageIndex: new.pageIndex, title: new.title, pageCount: pageCount, reader: reader, document: document.id)
        try answerLocation(document: document.id, "bookmarks", bookmark.id)
        return .created(.init(body: .json(try Self.schema(bookmark))))
    }

    /// Removes a bookmark: 204, or 404 when the reader has no such bookmark.
    func removeBookmark(_ input: Operations.RemoveBookmark.Input) async throws -> Operations.RemoveBookmark.Output {
        let (document, reader) = try await readerDocument()
        try await context.readers.removeBookmark(id: input.path.bookmark, reader: reader, document: document.id)
        return .noContent(.init())
    }

    /// Where the reader is now; answers it as kept.
    func setViewingState(_ input: Operations.SetViewingState.Input) async throws -> Operations.SetViewingState.Output {
        let (document, reader) = try await readerDocument()
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let viewing = try Self.library(body, as: ViewingState.self)
        let pageCount = try await document.pageCount()
        try await context.readers.setViewingState(viewing, pageCount: pageCount, reader: reader, document: document.id)
        return .ok(.init(body: .json(try Self.schema(viewing))))
    }
}
