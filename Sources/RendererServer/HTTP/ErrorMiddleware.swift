import Hummingbird
import Logging
import RendererServerHTTP

/// Turns every error a route throws into the API's JSON error (``APIError``), and logs each
/// request's method, path (never its query, which may hold the token) and status; at trace
/// level it also logs each request as it arrives, so that one can tell what is in flight.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        context.logger.trace("\(request.method) \(request.uri.path) arrived")
        do {
            let response = try await next(request, context)
            context.logger.debug("\(request.method) \(request.uri.path) \(response.status.code)")
            return response
        } catch {
            let apiError = APIError.from(error)
            if apiError.status.code >= 500 && apiError.status != .serviceUnavailable {
                // The answer says only the code; the log keeps what failed.
                context.logger.error("\(request.method) \(request.uri.path) \(apiError.status.code): \(String(describing: error).prefix(2_000))")
            } else {
                context.logger.debug("\(request.method) \(request.uri.path) \(apiError)")
            }
            return try apiError.response(from: request, context: context)
        }
    }
}
