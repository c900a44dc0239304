import Foundation
import NIOCore
import OpenAPIRuntime
import RendererProvider
import RendererServerHTTP
import Tracing

/// A page drawn as an image, the server's hottest route.
extension GeneratedRoutes {
    /// The page as PNG (or the part of it `clip` names: ``Routes/clip(_:)``), at `dpi`
    /// (default 96) or scaled to `width` pixels, with a strong entity tag (304 when
    /// `If-None-Match` names it) and `X-Renderer` naming the engine that drew it. `dark` draws
    /// it for a dark screen (403 when the settings make dark mode unavailable);
    /// `purpose=print` asks for a page to print: 403 `not-permitted` unless the settings and
    /// the PDF allow printing. `show` and `hide` list the optional-content groups drawn and
    /// left out (``Routes/optionalContentVisibility(show:hide:)``). The drawing counts against
    /// the render budget while it runs and stops when the client goes away.
    func pageImage(_ input: Operations.PageImage.Input) async throws -> Operations.PageImage.Output {
        let scope = try RequestScopeMiddleware.scope()
        let document = try await servedDocument()
        let page = try Routes.pageIndex(input.path.page)
        let renderer = try await rendererID(document)
        let query = input.query
        let (dpi, width, dark) = (query.dpi, query.width, query.dark ?? false)
        if dark { try await document.require(.darkMode) }
        let optionalContent = try Routes.optionalContentVisibility(show: query.show, hide: query.hide)
        let clip = try Routes.clip(query.clip)
        if query.purpose == .print { try await document.require(.printing) }
        let ceilings = context.limits
        if let dpi, !(dpi > 0 && dpi <= ceilings.maximumDPI) {
            throw APIError.badRequest("dpi must be above 0 and at most \(Int(ceilings.maximumDPI))")
        }
        if let width, !(1...ceilings.maximumWidth).contains(width) {
            throw APIError.badRequest("width must be from 1 to \(ceilings.maximumWidth) pixels")
        }
        let version = await document.currentVersion()
        let tag = Routes.eTag(
            version, renderer, "\(page)", dpi.map { "dpi\($0)" } ?? width.map { "w\($0)" } ?? "default", "\(dark)",
            "show" + optionalContent.shown.sorted().map(String.init).joined(separator: ","),
            "hide" + optionalContent.hidden.sorted().map(String.init).joined(separator: ","),
            clip.map { "clip\($0.minX),\($0.minY),\($0.size.width),\($0.size.height)" } ?? "page")
        try answer([.eTag: tag, .cacheControl: "private, no-cache", .init("X-Renderer")!: renderer])
        if scope.request.headers[values: .ifNoneMatch].contains(tag) { return .notModified }
        if let cached = await context.cache.lookup(tag) { return .ok(.init(body: .png(HTTPBody(cached.readableBytesView)))) }
        let png = try await draw(page, of: document, renderer: renderer, dpi: dpi, width: width, dark: dark, optionalContent: optionalContent, clip: clip)
        let bytes = ByteBuffer(bytes: png)
        await context.cache.keep(bytes, for: tag)
        return .ok(.init(body: .png(HTTPBody(png))))
    }

    /// Page `page` of `document` drawn by `renderer` as the request asks, as PNG: admitted by
    /// the render budget (by the pixels it takes) and the engine queue, within the time
    /// limit, each step a span of the request's trace.
    private func draw(
        _ page: Int, of document: ServedDocument, renderer: String, dpi: Double?, width: Int?, dark: Bool,
        optionalContent: OptionalContentVisibility, clip: PageRect?
    ) async throws -> Data {
        let scope = try RequestScopeMiddleware.scope()
        let server = context
        let limits = server.configuration
        // The request's trace, for the spans of the drawing's steps (the engine's run on
        // threads of their own, where no task-local context reaches).
        let trace = ServiceContext.current ?? .topLevel
        // The pixels this drawing takes count against the render budget while it runs.
        let weight = try await document.pageInfo(pageAt: page)
            .map { Routes.renderBytes(of: clip?.size ?? $0.size, dpi: dpi, width: width, maximumPixelCount: limits.maximumPixelCount) } ?? 1
        let reserved = try withSpan("admission", context: trace) { _ in try server.renderBudget.admit(weight: weight) }
        defer { withExtendedLifetime(reserved) {} }
        // A client that goes away cancels the drawing.
        return try await scope.context.cancellingIfClientLeaves {
            try await server.queue.run {
                // Waiting for an engine document of the pool and a thread to use it on.
                let queued = SpanUntilEnded(startSpan("queue", context: trace))
                defer { queued.end() }
                return try await document.pool(renderer).run(timeLimit: limits.timeLimit) { document, cancellation in
                    queued.end()
                    let size = width == nil ? nil : try clip?.size ?? document.pageInfo(pageAt: page).size
                    let resolution = Routes.resolution(of: size, dpi: dpi, width: width)
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
    }
}
