import Hummingbird
import RendererServerHTTP

/// Keeps the request being answered in a task local while a generated route answers it
/// (``GeneratedRoutes``), whose handlers are given only their operation's typed input: what a
/// served document needs of the request (the reader's key or cookie, `?renderer=`) is read
/// from there, as the hand-written routes read it. It also marks the answer `no-store`
/// unless it says otherwise, as every answer of the hand-written routes is.
struct RequestScopeMiddleware: RouterMiddleware {
    /// A request and its context, as Hummingbird gives them.
    struct Scope: Sendable {
        let request: Request
        let context: ServerRequestContext
    }

    @TaskLocal private static var current: Scope?

    func handle(_ request: Request, context: ServerRequestContext, next: (Request, ServerRequestContext) async throws -> Response) async throws -> Response {
        var response = try await Self.$current.withValue(Scope(request: request, context: context)) { try await next(request, context) }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }

    /// The request a generated route is answering; one reached without this middleware is
    /// the server's own fault (500).
    static func scope() throws -> Scope {
        guard let current else { throw APIError(.internalServerError, code: "internal", "a generated route ran outside its request") }
        return current
    }
}
