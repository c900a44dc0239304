import Hummingbird
import RendererServerHTTP

/// Answers a request the router found no route for. Under `/api` a request without
/// credentials is answered 401 first, as every route there answers it: the server's token,
/// or under `/api/collab` a bearer token of the collaborators'. Then a path that is a
/// route's with another method is answered 405 with `Allow` (`HEAD` is answered wherever
/// `GET` is); any other stays a 404. Added to the router after every route, so that it
/// wraps only the router's not-found answer.
struct UnroutedRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each route's path, split into segments, with the methods it answers. A parameter
    /// (`{name}`) or `*` matches one segment; a document id (`{id}`) one or more, since a
    /// client may leave the slashes of an id unencoded, which no route then finds.
    private let routes: [(segments: [Substring], methods: [HTTPRequest.Method])]
    /// The server's token.
    private let token: String

    /// A middleware over `routes`, as the router lists them once every route is added, for
    /// a server of `token`.
    init(routes: [Router<Context>.RouteDescription], token: String) {
        self.token = token
        var methods: [String: [HTTPRequest.Method]] = [:]
        for route in routes {
            methods[route.path.description, default: []].append(route.method)
            if route.method == .get { methods[route.path.description, default: []].append(.head) }
        }
        self.routes = methods.map { path, methods in
            (path.split(separator: "/"), methods.sorted { $0.rawValue < $1.rawValue })
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path
            if path.hasPrefix("/api/") {
                let credentials = path.hasPrefix("/api/collab/")
                    ? request.headers[.authorization]?.hasPrefix("Bearer ") == true || request.uri.queryParameters["access_token"] != nil
                    : TokenMiddleware<Context>.presents(request, token)
                guard credentials else { throw APIError.unauthorized() }
            }
            let allowed = allowedMethods(path)
            if allowed.contains(request.method) {
                throw APIError.notFound("no route has this path; a document id is percent-encoded as one segment (%2F for a slash)")
            }
            guard !allowed.isEmpty else { throw error }
            throw APIError.methodNotAllowed(request.method, allowed: allowed)
        }
    }

    /// The methods the routes answer at `path`; empty when no route has that path. Where
    /// a document id could end at several places, the routes that read the shortest id
    /// answer.
    func allowedMethods(_ path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        let matched = routes.compactMap { route in Self.idLength(route.segments[...], segments[...]).map { (route.methods, $0) } }
        guard let shortest = matched.map(\.1).min() else { return [] }
        var allowed: [HTTPRequest.Method] = []
        for (methods, length) in matched where length == shortest {
            allowed += methods.filter { !allowed.contains($0) }
        }
        return allowed.sorted { $0.rawValue < $1.rawValue }
    }

    /// The fewest segments of `path` the pattern's document id takes when `pattern`
    /// describes `path` (0 for a pattern without one); nil when it does not.
    private static func idLength(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Int? {
        guard let first = pattern.first else { return path.isEmpty ? 0 : nil }
        guard !path.isEmpty else { return nil }
        if first == "{id}" {
            return (1...path.count).first { taken in idLength(pattern.dropFirst(), path.dropFirst(taken)) != nil }
        }
        let one = (first.hasPrefix("{") && first.hasSuffix("}")) || first == "*" || first == path.first
        return one ? idLength(pattern.dropFirst(), path.dropFirst()) : nil
    }
}
