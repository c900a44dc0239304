import Foundation
import NIOCore
import OpenAPIRuntime
import RendererComparison
import RendererProvider
import RendererServerHTTP

/// One page drawn by the server's first two engines and compared (``DocumentComparer``):
/// the figures, and where the renders differ as a heat map. A comparison is computed once
/// per file version, page and resolution, and kept in the page image cache.
extension GeneratedRoutes {
    /// The page through the first two engines (the reference is the first), with the
    /// comparison's figures and the address of the difference heat map.
    func pageComparison(_ input: Operations.PageComparison.Input) async throws -> Operations.PageComparison.Output {
        let (document, dpi) = try await comparisonRequest(dpi: input.query.dpi)
        let page = try Routes.pageIndex(input.path.page)
        let scope = try RequestScopeMiddleware.scope()
        let result = try await scope.context.cancellingIfClientLeaves { try await self.compared(document, page: page, dpi: dpi) }
        return .ok(.init(body: .json(result.figures)))
    }

    /// Where the two engines' renders of the page differ, as PNG (red where they differ, the
    /// page faded elsewhere), with the comparison's entity tag.
    func heatMap(_ input: Operations.HeatMap.Input) async throws -> Operations.HeatMap.Output {
        let (document, dpi) = try await comparisonRequest(dpi: input.query.dpi)
        let page = try Routes.pageIndex(input.path.page)
        let scope = try RequestScopeMiddleware.scope()
        let result = try await scope.context.cancellingIfClientLeaves { try await self.compared(document, page: page, dpi: dpi) }
        scope.answer(.cacheControl, "private, no-cache")
        scope.answer(.eTag, result.tag)
        return .ok(.init(body: .png(HTTPBody(result.heatMap.readableBytesView))))
    }

    /// The document and the resolution of a comparison; 400 for one past the server's
    /// comparison limit, or on a server with one engine.
    private func comparisonRequest(dpi: Double?) async throws -> (ServedDocument, Double) {
        let document = try await servedDocument()
        let dpi = dpi ?? 72
        let ceiling = context.limits.comparisonMaximumDPI
        guard dpi > 0, dpi <= ceiling else { throw APIError.badRequest("dpi must be above 0 and at most \(Int(ceiling)) for a comparison") }
        guard context.rendererIDs.count >= 2 else { throw APIError.badRequest("a comparison needs two engines; this server has one") }
        return (document, dpi)
    }

    /// The comparison of one page, computed once per file version and kept in the image cache.
    private func compared(_ document: ServedDocument, page: Int, dpi: Double) async throws -> (figures: Components.Schemas.Comparison, heatMap: ByteBuffer, tag: String) {
        let ids = Array(context.rendererIDs.prefix(2))
        let version = await document.currentVersion()
        let tag = Routes.eTag(version, "compare", ids.joined(separator: ","), "\(page)", "\(dpi)")
        let figuresKey = tag + "#figures"
        let cache = context.cache
        if let figures = await cache.lookup(figuresKey), let heatMap = await cache.lookup(tag) {
            return (try JSONDecoder().decode(Components.Schemas.Comparison.self, from: Data(figures.readableBytesView)), heatMap, tag)
        }
        let (referencePool, candidatePool) = (await document.pool(ids[0]), await document.pool(ids[1]))
        let threads = context.threads
        let timeLimit = context.configuration.timeLimit
        let (comparison, heatMap): (PageComparison, Data) = try await context.queue.run {
            try await referencePool.withLease { reference in
                try await candidatePool.withLease { candidate in
                    return try await threads.run { cancellation in
                        var heatMap: Data?
                        let comparer = DocumentComparer(dpi: dpi, cancellation: Cancellation(timeLimit: timeLimit, within: cancellation))
                        let result = try comparer.compare(reference, candidate, pages: [page]) { images in
                            heatMap = try reference.encode(images.heatMap, as: .png)
                        }
                        guard let pageResult = result.pages.first else { throw RendererError(.pageOutOfRange, "no page \(page)") }
                        return (pageResult, heatMap ?? Data()) as (PageComparison, Data)
                    }
                }
            }
        }
        let figures = Components.Schemas.Comparison(
            pageIndex: page, reference: ids[0], candidate: ids[1], dpi: dpi,
            page: .init(
                passed: comparison.passed, failures: comparison.failures, differingShare: comparison.pixels?.differingShare,
                psnr: comparison.pixels?.psnr, textAgreement: comparison.textAgreement),
            heatMap: Routes.path(document: document.id, ["pages", String(page), "compare", "heatmap"]) + "?dpi=\(dpi)")
        let heatMapBytes = ByteBuffer(bytes: heatMap)
        await cache.keep(heatMapBytes, for: tag)
        await cache.keep(ByteBuffer(bytes: try JSONEncoder().encode(figures)), for: figuresKey)
        return (figures, heatMapBytes, tag)
    }
}
