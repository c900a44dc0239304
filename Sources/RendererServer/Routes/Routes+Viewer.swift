import Foundation
import Hummingbird
import RendererServerHTTP

extension Routes {
    /// The viewer's files, shipped as the module's resources (its page, style sheet, ES
    /// modules, web app manifest and icon), by name, with their media types: every file of the
    /// `Viewer` folder of one of those kinds, and nothing else.
    static let viewerFiles: [String: String] = {
        let types = [
            "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
            "webmanifest": "application/manifest+json", "svg": "image/svg+xml",
        ]
        guard let folder = Bundle.module.url(forResource: "Viewer", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [:] }
        return Dictionary(uniqueKeysWithValues: names.compactMap { name in types[(name as NSString).pathExtension].map { (name, $0) } })
    }()

    /// `GET /`: the viewer's page.
    @Sendable func viewerPage(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        try Self.viewerResource("index.html")
    }

    /// `GET /service-worker.js`: the viewer's service worker, at the root so that it may serve
    /// the viewer's page (`/`) and its API requests when the network is gone.
    @Sendable func viewerServiceWorker(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        try Self.viewerResource("service-worker.js")
    }

    /// `GET /viewer/{file}`: the viewer's script and style sheet.
    @Sendable func viewerFile(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        try Self.viewerResource(try context.parameters.require("file"))
    }

    private static func viewerResource(_ name: String) throws -> Response {
        guard let type = viewerFiles[name], let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Viewer"),
            let bytes = try? Data(contentsOf: url)
        else { throw APIError.notFound("no viewer file \"\(name.prefix(80))\"") }
        return data(
            bytes, type: type,
            headers: [
                .cacheControl: "no-cache",
                .contentSecurityPolicy: "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
                .init("X-Content-Type-Options")!: "nosniff",
            ])
    }
}

/// The viewer's entry: a request with `?token=` carrying the server's token is let in and
/// answered with a cookie holding it (HttpOnly, SameSite=Strict), so that the page's images
/// and API calls carry it from then on; the viewer then drops the token from its address.
/// Requests with the cookie or an `Authorization` header pass; everything else is 401.
/// A browser let in without a reader cookie is given one (a random id, for a year): whose
/// bookmarks and places ``ReaderStates`` keeps.
struct ViewerEntryMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let offered = request.uri.queryParameters[Substring(TokenMiddleware<Context>.queryParameter)].map { TokenMiddleware<Context>.equalInConstantTime(String($0), token) } ?? false
        guard offered || TokenMiddleware<Context>.presents(request, token) else { throw APIError.unauthorized() }
        var response = try await next(request, context)
        if offered {
            response.setCookie(Cookie(name: TokenMiddleware<Context>.cookieName(for: token), value: token, path: "/", secure: false, httpOnly: true, sameSite: .strict))
        }
        let readerCookie = ReaderStates.cookieName(token: token)
        if request.cookies[readerCookie].map({ ReaderStates.isReaderID($0.value) }) != true {
            response.setCookie(
                Cookie(name: readerCookie, value: Secrets.random(), maxAge: 365 * 24 * 3600, path: "/", secure: false, httpOnly: true, sameSite: .strict))
        }
        return response
    }
}
