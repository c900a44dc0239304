import HTTPTypes
import Hummingbird
import RendererServerHTTP

/// Reads the spellings of a yes-or-no query parameter the hand-written routes took
/// (`1`, `yes`, `0`, `no`, empty, in any case: `RouteSupport.flag(_:)`) as the `true` and
/// `false` the generated code reads, for each parameter the OpenAPI document declares
/// boolean on the route (``DeclaredQueryParameters``). Any other value is left for the
/// generated code to refuse. The other spellings are deprecated (CHANGELOG).
struct QueryFlagMiddleware: RouterMiddleware {
    func handle(_ request: Request, context: ServerRequestContext, next: (Request, ServerRequestContext) async throws -> Response) async throws -> Response {
        guard let route = context.endpointPath, let declared = DeclaredQueryParameters.of(method: request.method.rawValue, path: route),
            declared.values.contains(where: { $0.kind == .boolean }), let path = request.head.path, let mark = path.firstIndex(of: "?")
        else { return try await next(request, context) }
        var changed = false
        let pairs = path[path.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Routes.formDecoded(halves[0]), declared[name]?.kind == .boolean,
                let value = halves.count > 1 ? Routes.formDecoded(halves[1]) : "", let flag = Routes.flag(value).map(String.init), flag != value
            else { return String(pair) }
            changed = true
            return halves[0] + "=" + flag
        }
        guard changed else { return try await next(request, context) }
        var head = request.head
        head.path = path[..<mark] + "?" + pairs.joined(separator: "&")
        return try await next(Request(head: head, body: request.body), context)
    }
}
