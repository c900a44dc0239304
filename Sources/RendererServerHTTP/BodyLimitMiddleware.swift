import Hummingbird

/// Reads a request's body before a generated route does, at most `limit` bytes (413 past
/// it, before the route runs): the generated code would otherwise gather a body of any size
/// before decoding it.
package struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The most bytes a body may hold (the server's `bodyLimit`).
    package let limit: Int

    package init(limit: Int) {
        self.limit = limit
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        _ = try await request.collectBody(within: limit)
        return try await next(request, context)
    }
}
