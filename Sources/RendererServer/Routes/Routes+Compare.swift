import Foundation
import Hummingbird
import RendererComparison
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// `GET .../pages/{page}/compare?dpi=`: the page drawn by the first two engines (the
    /// reference is the first), with ``DocumentComparer``'s figures and the address of the
    /// difference heat map.
    @Sendable func pageComparison(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let (document, page, dpi) = try await comparisonRequest(request, context)
        let result = try await context.cancellingIfClientLeaves { try await self.compared(document, page: page, dpi: dpi) }
        return try Self.json(result.figures)
    }

    /// `GET .../pages/{page}/compare/heatmap?dpi=`: where the two engines' renders differ,
    /// as PNG (red where they differ, the page faded elsewhere).
    @Sendable func heatMap(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let (document, page, dpi) = try await comparisonRequest(request, context)
        let result = try await context.cancellingIfClientLeaves { try await self.compared(document, page: page, dpi: dpi) }
        return Response(
            status: .ok, headers: [.contentType: "image/png", .cacheControl: "private, no-cache", .eTag: result.tag],
            body: .init(byteBuffer: result.heatMap))
    }

    private func comparisonRequest(_ request: Request, _ context: ServerRequestContext) async throws -> (ServedDocument, Int, Double) {
        let document = try await servedDocument(request, context)
        let page = try Self.pageIndex(context)
        let dpi = try Self.query("dpi", request, as: Double.self) ?? 72
        let ceiling = self.context.limits.comparisonMaximumDPI
        guard dpi > 0, dpi <= ceiling else {
            throw APIError.badRequest("dpi must be above 0 and at most \(Int(ceiling)) for a comparison")
        }
        guard self.context.rendererIDs.count >= 2 else { throw APIError.badRequest("a comparison needs two engines; this server has one") }
        return (document, page, dpi)
    }

    /// The comparison of one page, computed once per file version and kept in the image cache.
    private func compared(_ document: ServedDocument, page: Int, dpi: Double) async throws -> (figures: Payload.Comparison, heatMap: ByteBuffer, tag: String) {
        let ids = Array(self.context.rendererIDs.prefix(2))
        let version = await document.currentVersion()
        let tag = Self.eTag(version, "compare", ids.joined(separator: ","), "\(page)", "\(dpi)")
        let figuresKey = tag + "#figures"
        let heatMapURL = "/api/documents/\(Self.percentEncoded(document.id))/pages/\(page)/compare/heatmap?dpi=\(dpi)"
        let cache = self.context.cache
        if let figures = await cache.lookup(figuresKey), let heatMap = await cache.lookup(tag) {
            return (try JSONDecoder().decode(Payload.Comparison.self, from: Data(figures.readableBytesView)), heatMap, tag)
        }
        let (referencePool, candidatePool) = (await document.pool(ids[0]), await document.pool(ids[1]))
        let threads = self.context.threads
        let timeLimit = self.context.configuration.timeLimit
        let (comparison, heatMap): (PageComparison, Data) = try await self.context.queue.run {
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
        let figures = Payload.Comparison(
            pageIndex: page, reference: ids[0], candidate: ids[1], dpi: dpi,
            page: Payload.PageComparisonFigures(
                passed: comparison.passed, failures: comparison.failures, differingShare: comparison.pixels?.differingShare,
                psnr: comparison.pixels?.psnr, textAgreement: comparison.textAgreement),
            heatMap: heatMapURL)
        let heatMapBytes = ByteBuffer(bytes: heatMap)
        await cache.keep(heatMapBytes, for: tag)
        await cache.keep(ByteBuffer(bytes: try JSONEncoder().encode(figures)), for: figuresKey)
        return (figures, heatMapBytes, tag)
    }

    /// `text` as one percent-encoded path segment.
    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
