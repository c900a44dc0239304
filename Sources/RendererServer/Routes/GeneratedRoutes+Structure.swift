import Foundation
import OpenAPIRuntime
import RendererProvider
import RendererServerHTTP

/// A document's text with its structure, for people and for machines that read for them.
extension GeneratedRoutes {
    /// The text of pages `first` to `last` (numbers from 1; the first page and up to
    /// ``ServerLimits/structurePageCeiling`` pages from it by default) with its structure
    /// (`Document.structuredText`: a tagged PDF's structure tree where it has one, read by a
    /// served renderer that reads trees, the layout's otherwise): `format=json` (the default)
    /// as `StructuredText`'s JSON, `markdown` as `text/markdown`, `html` as an HTML document
    /// downloaded, never shown as a page of this server. 400 for a page number below 1, 404
    /// past the last page, 422 for a range that runs backwards or is longer than the ceiling.
    /// Markdown and HTML copy the text out: 403 unless the settings and the PDF's copy
    /// permission allow `copying`. JSON is what the viewer gives screen readers, reading as
    /// its text layer is, and is served either way.
    func documentStructure(_ input: Operations.DocumentStructure.Input) async throws -> Operations.DocumentStructure.Output {
        let document = try await servedDocument()
        let renderer = try await rendererID(document)
        let format = input.query.format ?? .json
        if format != .json { try await document.require(.copying) }
        let first = input.query.first ?? 1
        let ceiling = ServerLimits.structurePageCeiling
        let server = context
        let pool = await document.pool(renderer)
        let admission = try server.queue.admit()
        let (pageCount, title) = try await pool.run(timeLimit: server.configuration.timeLimit) { document, _ in
            (document.pageCount, try document.info().title)
        }
        guard first >= 1 else { throw APIError.badRequest("first and last are page numbers from 1") }
        guard first <= pageCount else { throw APIError.notFound("the document has \(pageCount) pages") }
        let last = input.query.last ?? min(pageCount, first + ceiling - 1)
        guard last >= 1 else { throw APIError.badRequest("first and last are page numbers from 1") }
        guard last <= pageCount else { throw APIError.notFound("the document has \(pageCount) pages") }
        guard last >= first else { throw RendererError(.invalidArgument, "first must be no later than last") }
        guard last - first < ceiling else {
            throw RendererError(.limitExceeded, "a request reads at most \(ceiling) pages; ask for the rest in further requests")
        }
        let indices = Array((first - 1)..<last)
        // A tagged PDF's tree is read by the renderer asked for when it reads trees, else by
        // the first served one that does (Poppler while MuPDF draws): the author's structure
        // is worth more to a screen reader than what the layout suggests.
        let readsTrees = { (id: String) in server.registry.renderers.contains { $0.id == id && $0.capabilities.contains(.structureTree) } }
        let treeReader = readsTrees(renderer) ? renderer : server.registry.renderers.first { $0.capabilities.contains(.structureTree) }?.id ?? renderer
        let tagged = try await document.pool(treeReader).run(timeLimit: server.configuration.timeLimit) { document, _ in
            try document.taggedStructure(pages: indices)
        }
        let taggedIndices = Set(tagged.map(\.index))
        var pages: [(index: Int, page: TextPage)] = []
        for index in indices where !taggedIndices.contains(index) {
            try Task.checkCancellation()
            pages.append((index, try await pool.run(timeLimit: server.configuration.timeLimit) { document, _ in try document.textPage(pageAt: index) }))
        }
        let structure = try await pool.run(timeLimit: server.configuration.timeLimit) { [pages] document, _ in
            try document.structuredText(pages: indices, tagged: tagged, inferringFrom: pages)
        }
        withExtendedLifetime(admission) {}
        let name = URL(fileURLWithPath: document.id).deletingPathExtension().lastPathComponent
        switch format {
        case .markdown:
            try answer([.contentType: "text/markdown; charset=utf-8", .init("X-Content-Type-Options")!: "nosniff"])
            return .ok(.init(body: .textMarkdown(HTTPBody(structure.markdown))))
        case .html:
            let html = structure.html(title: title.flatMap { $0.isEmpty ? nil : $0 } ?? name)
            var headers = Routes.sandboxedDownloadHeaders(name: "\(name).html")
            headers[.contentType] = "text/html; charset=utf-8"
            try answer(headers)
            return .ok(.init(body: .html(HTTPBody(html))))
        case .json:
            return .ok(.init(body: .json(try Self.schema(structure))))
        }
    }
}
