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
        // The router names the route matched (`/api/documents/:id`), once it has matched one.
        let route = context.endpointPath.map { $0 == "NotFound" ? "unrouted" : $0 } ?? "unrouted"
        metrics.recordRequest(route: route, method: request.method.rawValue, status: status, duration: ContinuousClock.now - started)
    }
}
