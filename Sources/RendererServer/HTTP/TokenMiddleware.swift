import Foundation
import Hummingbird
import RendererServerHTTP

/// Checks the server's token on every request: in an `Authorization: Bearer` header, or in
/// the cookie the viewer's entry page sets. Anything else is answered 401.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The cookie that carries `token` for the viewer's page, images and API calls, named
    /// for this server alone (``Secrets/cookieName(_:for:bytes:)``).
    static func cookieName(for token: String) -> String {
        Secrets.cookieName("renderer_token_", for: token)
    }

    /// The query parameter the viewer's entry page alone takes the token in (it sets the
    /// cookie and sends the browser on without it).
    static var queryParameter: String { "token" }

    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.presents(request, token) else { throw APIError.unauthorized() }
        return try await next(request, context)
    }

    /// Whether `request` carries `token`.
    static func presents(_ request: Request, _ token: String) -> Bool {
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            equalInConstantTime(String(header.dropFirst(7)), token) {
            return true
        }
        if let cookie = request.cookies[cookieName(for: token)]?.value, equalInConstantTime(cookie, token) { return true }
        return false
    }

    /// Compares two secrets in time that depends only on their lengths.
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
