import Hummingbird

/// Marks an answer `no-store` unless it says how it may be kept, as the hand-written routes'
/// answers are (``RouteSupport/data(_:type:status:headers:)``): what the API answers is one
/// reader's, and changes.
package struct NoStoreMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
