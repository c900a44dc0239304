import Foundation
import Hummingbird
import NIOCore
import OpenAPIHummingbird
import RendererCollaborationServer
import RendererProvider
import RendererServerHTTP

/// The server's routes, built in one place (``register(on:)``); the handlers live in the
/// extensions named for what they serve. Every path is under `/api` but the viewer's.
/// Page indices in paths are 0-based, as everywhere in the API; geometry is in the API's
/// page space (points, origin at the top-left of the page as displayed).
struct Routes: RouteSupport {
    let library: DocumentLibrary
    let context: ServerContext

    var bodyLimit: Int { context.configuration.bodyLimit }

    /// The group every route but the viewer's is under.
    static let apiGroup = "api"
    /// The liveness route (`GET /api/health`, one of ``GeneratedRoutes``), which a draining
    /// server still answers.
    static let healthRoute = "health"

    func register(on router: Router<ServerRequestContext>) {
        router.add(middleware: RequestMetricsMiddleware(metrics: context.metrics))
        router.add(middleware: RequestIDMiddleware())
        // A span per request (continuing the trace of a `traceparent` header) when the host
        // bootstrapped a tracer; the token is never recorded.
        router.add(middleware: TracingMiddleware(redactingQueryParameters: [TokenMiddleware<ServerRequestContext>.queryParameter]))
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: ShutdownMiddleware(gate: context.gate, stillAnswered: "/\(Self.apiGroup)/\(Self.healthRoute)"))
        let viewer = router.group()
        viewer.add(middleware: ViewerEntryMiddleware(token: context.configuration.token))
        viewer.get("/", use: viewerPage)
        viewer.get("/viewer/:file", use: viewerFile)
        viewer.get("/service-worker.js", use: viewerServiceWorker)

        // Collaboration requests carry collaboration tokens, checked by each of their routes.
        collaboration?.register(on: router)

        let api = router.group(RouterPath(Self.apiGroup))
        api.add(middleware: TokenMiddleware(token: context.configuration.token))
        api.add(middleware: SameOriginMiddleware())
        api.post("uploads", use: upload)
        let document = api.group("documents/:id")
        document.get("search", use: search)
        document.get("file", use: file)

        // The operations whose types and registration are generated from the OpenAPI document
        // (their paths hold the `/api` prefix), under the same middleware. Registering throws
        // only for a server URL it cannot read, and the document's is `/`.
        let generated = router.group()
        generated.add(middleware: TokenMiddleware(token: context.configuration.token))
        generated.add(middleware: SameOriginMiddleware())
        generated.add(middleware: NoStoreMiddleware())
        generated.add(middleware: BodyLimitMiddleware(limit: bodyLimit))
        generated.add(middleware: QueryFlagMiddleware())
        generated.add(middleware: RequestScopeMiddleware())
        try! GeneratedRoutes(routes: self).registerHandlers(on: generated, configuration: GeneratedRoutes.configuration)
    }

    /// The collaboration routes, over the server's backend and documents, when it
    /// collaborates.
    var collaboration: CollaborationRoutes? {
        context.collaboration.map { CollaborationRoutes(backend: $0, host: CollaborationDocuments(routes: self), bodyLimit: bodyLimit) }
    }

    // MARK: Reading requests

    /// The served document the path's `:id` names (percent-decoded: ids may hold slashes),
    /// once `request` is let in (``admitted(_:to:)``).
    func servedDocument(_ request: Request, _ context: ServerRequestContext) async throws -> ServedDocument {
        try await admitted(request, to: try Self.pathParameter("id", context))
    }

    /// The served document `id`, once `request` is let in: with the password its reader's key
    /// stands for, if any; an encrypted document a reader unlocked refuses requests without one.
    func admitted(_ request: Request, to id: String) async throws -> ServedDocument {
        let document = try await library.document(id)
        let password = await self.context.unlocks.password(in: request, document: (id, document.path), token: self.context.configuration.token)
        try await document.admit(password: password)
        return document
    }

    /// A `Location` header naming what a 201 made: the API path of document `id` followed by
    /// `components`, each percent-encoded but for RFC 3986's unreserved characters (ids may
    /// hold slashes).
    static func location(document id: String, _ components: String...) -> HTTPFields {
        [.location: path(document: id, components)]
    }

    /// The API path of document `id` followed by `components`, each percent-encoded but for
    /// RFC 3986's unreserved characters (ids may hold slashes).
    static func path(document id: String, _ components: [String]) -> String {
        let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let encoded = ([id] + components).map { $0.addingPercentEncoding(withAllowedCharacters: unreserved) ?? $0 }
        return "/api/documents/" + encoded.joined(separator: "/")
    }

    /// A path parameter, percent-decoded.
    static func pathParameter(_ name: String, _ context: ServerRequestContext) throws -> String {
        let raw = try context.parameters.require(name)
        guard let decoded = raw.removingPercentEncoding else { throw APIError.badRequest("\(name) is not percent-encoded correctly") }
        return decoded
    }

    /// The path's `:page`: a page index, 0 or more.
    static func pageIndex(_ context: ServerRequestContext) throws -> Int {
        try pageIndex(context.parameters.get("page").flatMap { Int($0) })
    }

    /// `index` when it is a page index (0 or more); 400 otherwise.
    static func pageIndex(_ index: Int?) throws -> Int {
        guard let index, index >= 0 else { throw APIError.badRequest("the page must be an index from 0 (the first page)") }
        return index
    }

    /// The renderer the request names (`?renderer=`, or `?engine=`, its former name, still
    /// read in this release), or the document's default. Each given must name a renderer of
    /// this server.
    func rendererID(_ request: Request, _ document: ServedDocument) async throws -> String {
        let named = [try Self.queryText("renderer", request), try Self.queryText("engine", request)].compactMap { $0 }
        for requested in named where !context.rendererIDs.contains(requested) {
            throw APIError.badRequest("unknown renderer \"\(requested.prefix(40))\"; this server has \(context.rendererIDs.joined(separator: ", "))")
        }
        guard let requested = named.first else { return try await document.defaultRendererID() }
        return requested
    }

    /// Runs `body` on an engine document of the request's document, through the engine the
    /// request names (given to `body`): admitted by the queue, within the time limit.
    func engineWork<T: Sendable>(
        _ request: Request, _ context: ServerRequestContext, _ body: @escaping @Sendable (Document, String) throws -> T
    ) async throws -> T {
        let document = try await servedDocument(request, context)
        let renderer = try await rendererID(request, document)
        let timeLimit = self.context.configuration.timeLimit
        return try await self.context.queue.run {
            try await document.pool(renderer).run(timeLimit: timeLimit) { document, _ in try body(document, renderer) }
        }
    }
}
