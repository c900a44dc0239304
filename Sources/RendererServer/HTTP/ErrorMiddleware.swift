import Hummingbird
import Logging
import OpenAPIRuntime
import RendererProvider
import RendererServerHTTP

/// Turns every error a route throws into the API's JSON error (``APIError``), and logs each
/// request once answered, at info level: its method and path (never its query, which may hold
/// the token) and status in the message, and as metadata its route (`/api/documents/:id`),
/// status and the milliseconds it took (until its body began). At trace level it also logs
/// each request as it arrives, so that one can tell what is in flight.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        context.logger.trace("\(request.method) \(request.uri.path) arrived")
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            context.logger.info("\(request.method) \(request.uri.path) \(response.status.code)", metadata: Self.answer(response.status, context, since: started))
            return response
        } catch {
            let apiError = Self.apiError(error)
            if apiError.status.code >= 500 && apiError.status != .serviceUnavailable {
                // The answer says only the code; the log keeps what failed.
                context.logger.error(
                    "\(request.method) \(request.uri.path) \(apiError.status.code): \(String(describing: error).prefix(2_000))",
                    metadata: Self.answer(apiError.status, context, since: started))
            } else {
                context.logger.info("\(request.method) \(request.uri.path) \(apiError)", metadata: Self.answer(apiError.status, context, since: started))
            }
            return try apiError.response(from: request, context: context)
        }
    }

    /// The API's error for what a route threw. The generated routes (``GeneratedRoutes``)
    /// wrap what they throw in a `ServerError`: a handler's own error is answered as it is;
    /// one the generated code found in the request (a parameter, body or media type it cannot
    /// read, an `Accept` no answer meets) with the client error it chose, 400 when it chose
    /// none, naming the query parameter when one is at fault (``QueryParameterRefusal``);
    /// anything else is the server's failure.
    static func apiError(_ error: any Error) -> APIError {
        guard let wrapped = error as? ServerError else { return APIError.from(error) }
        switch wrapped.underlyingError {
        case is APIError, is RendererError, is any HTTPResponseError:
            return APIError.from(wrapped.underlyingError)
        default:
            let status: HTTPResponse.Status
            if (400..<500).contains(wrapped.httpStatus.code) {
                status = wrapped.httpStatus
            } else if wrapped.operationInput == nil {
                status = .badRequest
            } else {
                return APIError.from(wrapped.underlyingError)
            }
            let code =
                switch status {
                case .unsupportedMediaType: "unsupported-media-type"
                case .notAcceptable: "not-acceptable"
                default: "bad-request"
                }
            // The generated code's words do not say which parameter it could not read.
            let named = status == .badRequest ? QueryParameterRefusal.message(operationID: wrapped.operationID, request: wrapped.request) : nil
            return APIError(status, code: code, named ?? wrapped.causeDescription)
        }
    }

    private static func answer(_ status: HTTPResponse.Status, _ context: Context, since started: ContinuousClock.Instant) -> Logger.Metadata {
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        return [
            "http.route": .string(context.routeTemplate), "http.status": .stringConvertible(status.code),
            "duration.ms": .stringConvertible((milliseconds * 10).rounded() / 10),
        ]
    }
}
