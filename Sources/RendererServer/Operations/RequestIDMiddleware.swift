import Hummingbird

/// Names each request for the logs: by the `X-Request-Id` a load balancer or client sent,
/// when it is 1 to 128 letters, digits and `-_.:`, and otherwise by the id Hummingbird gave
/// it. Every message logged for the request carries that id (the metadata `hb.request.id`),
/// and the answer sends it back in `X-Request-Id`, so that a client, a balancer's log and the
/// server's log name the same request alike. An id that is not acceptable is not echoed.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    static var header: HTTPFields.Element.Name { .init("X-Request-Id")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let given = request.headers[Self.header], Self.isAcceptable(given) {
            context.logger[metadataKey: "hb.request.id"] = .string(given)
        }
        let id = context.id
        var response = try await next(request, context)
        response.headers[Self.header] = id
        return response
    }

    /// Whether `id` may name a request in the logs and the answer: nothing a log line or a
    /// header could be made to say more with.
    static func isAcceptable(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A
            }
    }
}
