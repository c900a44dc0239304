import Hummingbird

/// Counts every request in ``ServerMetrics`` once it is answered (or its error is): by the
/// route it matched, its method and the status sent. Outermost of the server's middleware, so
/// that it sees the status the client gets, refusals included.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, since: started)
            return response
        } catch {
            record(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: started)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant) {
        metrics.recordRequest(route: context.routeTemplate, method: request.method.rawValue, status: status, duration: ContinuousClock.now - started)
    }
}

extension RequestContext {
    /// The route the router matched, as it is written (`/api/documents/{id}`), or `unrouted`
    /// before it has matched one and when none matched: what the metrics and the log name a
    /// request by, so that a document's id is not a series of its own.
    var routeTemplate: String {
        endpointPath.map { $0 == "NotFound" ? "unrouted" : $0 } ?? "unrouted"
    }
}
