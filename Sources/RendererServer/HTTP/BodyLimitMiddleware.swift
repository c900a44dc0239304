import Hummingbird
import RendererServerHTTP

/// Reads a request's body before a generated route does, at most `limit` bytes (413 past
/// it, before the route runs): the generated code would otherwise gather a body of any size
/// before decoding it.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The most bytes a body may hold (``ServerConfiguration/bodyLimit``).
    let limit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        _ = try await request.collectBody(within: limit)
        return try await next(request, context)
    }
}
