import Foundation
import OpenAPIRuntime
import RendererProvider
import RendererServerHTTP

/// The outline and the pages' links written: through the document's session, then saved, as
/// annotations are. Reading them is in ``GeneratedRoutes`` `+Reading`.
extension GeneratedRoutes {
    /// Replaces the outline with the body's items (an empty array removes it), saves the file
    /// and answers the outline as read back with what the edit dropped (``OutlineEditReport``).
    func setOutline(_ input: Operations.SetOutline.Input) async throws -> Operations.SetOutline.Output {
        let document = try await servedDocument()
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let items = try Self.library(body, as: [OutlineItem].self)
        let (outline, report) = try await document.edit { session in
            let report = try session.setOutline(items)
            return (try session.outline(), report)
        }
        return .ok(.init(body: .json(.init(outline: try Self.schema(outline), report: .init(targetsDropped: report.targetsDropped)))))
    }

    /// Adds the body's link to the page, saves the file and answers the page's links; 201,
    /// the page's links' path in `Location`.
    func addLink(_ input: Operations.AddLink.Input) async throws -> Operations.AddLink.Output {
        let document = try await servedDocument()
        let page = try Routes.pageIndex(input.path.page)
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let link = try Self.library(body, as: Link.self)
        let links = try await document.edit { session in
            try session.addLink(link, pageAt: page)
            return try session.links(pageAt: page)
        }
        try answerLocation(document: document.id, "pages", String(page), "links")
        return .created(.init(body: .json(try Self.schema(links))))
    }

    /// Removes the page's links over the area `rect` names (`x,y,w,h`, each edge within half
    /// a point), saves the file and answers how many went; 400 when none is there.
    func removeLinks(_ input: Operations.RemoveLinks.Input) async throws -> Operations.RemoveLinks.Output {
        let document = try await servedDocument()
        let page = try Routes.pageIndex(input.path.page)
        let text = input.query.rect
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3] else {
            throw APIError.badRequest("rect must be four numbers x,y,w,h, not \"\(text.prefix(40))\"")
        }
        let area = PageRect(x: x, y: y, width: width, height: height)
        let removed = try await document.edit { try $0.removeLinks(in: area, pageAt: page) }
        return .ok(.init(body: .json(.init(removed: removed))))
    }
}
