import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP
import Tracing

extension Routes {
    /// The default resolution of a page image.
    static var defaultDPI: Double { 96 }

    /// `GET .../pages/{page}/image?dpi=|width=&clip=&renderer=&dark=&purpose=&show=&hide=`: the page
    /// as PNG (or the part of it `clip` names: ``clip(_:)``), at
    /// `dpi` (default 96) or scaled to `width` pixels, with a strong ETag (304 when it
    /// matches) and `X-Renderer` naming the engine that drew it. `dark=true` draws it for a
    /// dark screen (403 when the settings make dark mode unavailable). `purpose=print` asks for a
    /// page to print: 403 `not-permitted` unless the settings and the PDF allow printing.
    /// `show=` and `hide=` list the optional-content groups drawn and left out
    /// (``optionalContentVisibility(_:)``).
    @Sendable func pageImage(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let page = try Self.pageIndex(context)
        let renderer = try await rendererID(request, document)
        let limits = self.context.configuration
        let dpi = try Self.query("dpi", request, as: Double.self)
        let width = try Self.query("width", request, as: Int.self)
        let dark = try Self.flag("dark", request)
        if dark { try await document.require(.darkMode) }
        let optionalContent = try Self.optionalContentVisibility(request)
        let clip = try Self.clip(request)
        switch try Self.queryText("purpose", request) {
        case nil, "screen": break
        case "print": try await document.require(.printing)
        default: throw APIError.badRequest("purpose must be screen or print")
        }
        let ceilings = self.context.limits
        if let dpi, !(dpi > 0 && dpi <= ceilings.maximumDPI) {
            throw APIError.badRequest("dpi must be above 0 and at most \(Int(ceilings.maximumDPI))")
        }
        if let width, !(1...ceilings.maximumWidth).contains(width) {
            throw APIError.badRequest("width must be from 1 to \(ceilings.maximumWidth) pixels")
        }
        let version = await document.currentVersion()
        let tag = Self.eTag(
            version, renderer, "\(page)", dpi.map { "dpi\($0)" } ?? width.map { "w\($0)" } ?? "default", "\(dark)",
            "show" + optionalContent.shown.sorted().map(String.init).joined(separator: ","),
            "hide" + optionalContent.hidden.sorted().map(String.init).joined(separator: ","),
            clip.map { "clip\($0.minX),\($0.minY),\($0.size.width),\($0.size.height)" } ?? "page")
        let headers: HTTPFields = [.cacheControl: "private, no-cache", .init("X-Renderer")!: renderer]
        return try await request.ifNoneMatch(headers: headers, eTag: tag, context: context) {
            if let cached = await self.context.cache.lookup(tag) {
                return Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: cached))
            }
            // The request's trace, for the spans of the drawing's steps (the engine's run on
            // threads of their own, where no task-local context reaches).
            let trace = ServiceContext.current ?? .topLevel
            // The pixels this drawing takes count against the render budget while it runs.
            let weight = try await document.pageInfo(pageAt: page)
                .map { Self.renderBytes(of: clip?.size ?? $0.size, dpi: dpi, width: width, maximumPixelCount: limits.maximumPixelCount) } ?? 1
            let reserved = try withSpan("admission", context: trace) { _ in try self.context.renderBudget.admit(weight: weight) }
            defer { withExtendedLifetime(reserved) {} }
            // A client that goes away cancels the drawing.
            let png = try await context.cancellingIfClientLeaves {
                try await self.context.queue.run {
                    // Waiting for an engine document of the pool and a thread to use it on.
                    let queued = SpanUntilEnded(startSpan("queue", context: trace))
                    defer { queued.end() }
                    return try await document.pool(renderer).run(timeLimit: limits.timeLimit) { document, cancellation in
                        queued.end()
                        let size = width == nil ? nil : try clip?.size ?? document.pageInfo(pageAt: page).size
                        let resolution = Self.resolution(of: size, dpi: dpi, width: width)
                        guard resolution <= limits.maximumDPI else {
                            throw APIError.badRequest("that width needs \(Int(resolution)) dpi, past the limit of \(Int(limits.maximumDPI))")
                        }
                        var options = RenderOptions(
                            dpi: resolution, maximumPixelCount: limits.maximumPixelCount, maximumDPI: limits.maximumDPI, darkMode: dark)
                        options.optionalContent = optionalContent
                        options.clip = clip
                        let image = try withSpan("engine", context: trace) { span in
                            span.attributes["renderer"] = renderer
                            return try document.render(pageAt: page, options: options, cancellation: cancellation)
                        }
                        return try withSpan("encoding", context: trace) { _ in try document.encode(image, as: .png) }
                    }
                }
            }
            let bytes = ByteBuffer(bytes: png)
            await self.context.cache.keep(bytes, for: tag)
            return Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: bytes))
        }
    }

    /// The largest side a clip may have, in points: a PDF page's (200 inches).
    static let maximumClipSide = 14_400.0

    /// The part of the page a page image shows: `clip=x,y,width,height`, in points from the
    /// top-left corner of the page's crop box as displayed (a rectangle of
    /// `StructuredText.Page.figureAreas`, say); nil for the whole page. 400 for anything but
    /// four decimal numbers (digits, a point and a sign only); 422 for a width or a height
    /// not above 0 or a number past ``maximumClipSide``, and from the engine for a clip
    /// outside the page.
    static func clip(_ request: Request) throws -> PageRect? {
        guard let text = try queryText("clip", request) else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy(isDecimal) else {
            throw APIError.badRequest("clip must be x,y,width,height: four decimal numbers of points")
        }
        let numbers = parts.map { Double($0) ?? .infinity }
        guard numbers.allSatisfy({ $0.isFinite && abs($0) <= maximumClipSide }), numbers[2] > 0, numbers[3] > 0 else {
            throw RendererError(.invalidArgument, "a clip's width and height must be above 0, and each number at most \(Int(maximumClipSide)) points")
        }
        return PageRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// Whether `text` is a decimal number as the API writes them: an optional minus, digits,
    /// and digits after a point where there is one.
    private static func isDecimal(_ text: Substring) -> Bool {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : text
        let halves = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(halves.count) && halves.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
    }

    /// The bytes drawing a page of `size` (points) at `dpi` or `width` pixels takes while it
    /// runs: 4 a pixel for the bitmap and as much again for encoding it, at most
    /// `maximumPixelCount` pixels (the drawing refuses more).
    static func renderBytes(of size: PageSize, dpi: Double?, width: Int?, maximumPixelCount: Int) -> Int {
        let resolution = resolution(of: size, dpi: dpi, width: width)
        let pixels = (size.width * resolution / 72).rounded(.up) * (size.height * resolution / 72).rounded(.up)
        return Int(min(pixels, Double(maximumPixelCount))) * 8
    }

    /// The resolution a page of `size` points is drawn at for a request: the one that makes
    /// it `width` pixels wide when a width is asked, else `dpi`, else ``defaultDPI``.
    static func resolution(of size: PageSize? = nil, dpi: Double? = nil, width: Int? = nil) -> Double {
        if let width, let size { return Double(width) * 72 / max(size.width, 1) }
        return dpi ?? defaultDPI
    }
}
