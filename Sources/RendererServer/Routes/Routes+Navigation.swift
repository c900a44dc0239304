import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

/// The outline and the pages' links: read with any engine, and written (then saved) through
/// the document's session, as annotations are.
extension Routes {
    /// `PUT /api/documents/{id}/outline`: replaces the outline with the body's items (an
    /// empty array removes it), saves the file and answers the outline as read back with
    /// what the edit dropped (``OutlineEditReport``).
    @Sendable func setOutline(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let items = try await decode([OutlineItem].self, from: request)
        let written = try await document.edit { session in
            let report = try session.setOutline(items)
            return Payload.OutlineWritten(outline: try session.outline(), report: report)
        }
        return try Self.json(written)
    }

    /// `GET .../pages/{page}/links?renderer=`: the page's links, as the API's links.
    @Sendable func pageLinks(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let page = try Self.pageIndex(context)
        return try Self.json(try await engineWork(request, context) { document, _ in try document.links(pageAt: page) })
    }

    /// `POST .../pages/{page}/links`: adds the body's link to the page, saves the file and
    /// answers the page's links; 201, the page's links' path in `Location`.
    @Sendable func addLink(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let page = try Self.pageIndex(context)
        let link = try await decode(Link.self, from: request)
        let links = try await document.edit { session in
            try session.addLink(link, pageAt: page)
            return try session.links(pageAt: page)
        }
        return try Self.json(links, status: .created, headers: Self.location(document: document.id, "pages", String(page), "links"))
    }

    /// `DELETE .../pages/{page}/links?rect=x,y,w,h`: removes the page's links over that area
    /// (each edge within half a point), saves the file and answers how many went; 400 when none
    /// is there.
    @Sendable func removeLinks(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let page = try Self.pageIndex(context)
        guard let text = try Self.queryText("rect", request) else { throw APIError.badRequest("rect=x,y,w,h is required") }
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3] else {
            throw APIError.badRequest("rect must be four numbers x,y,w,h, not \"\(text.prefix(40))\"")
        }
        let area = PageRect(x: x, y: y, width: width, height: height)
        let removed = try await document.edit { try $0.removeLinks(in: area, pageAt: page) }
        return try Self.json(Payload.LinksRemoved(removed: removed))
    }
}
