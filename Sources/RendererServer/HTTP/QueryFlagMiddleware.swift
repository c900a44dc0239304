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
        guard let path = request.head.path, let mark = path.firstIndex(of: "?") else { return try await next(request, context) }
        let pairs = path[path.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (raw: pair, name: halves[0], flag: Self.rewritten(halves.count > 1 ? halves[1] : ""))
        }
        // The document is read (once a process) only for a query that spells a flag otherwise.
        guard pairs.contains(where: { $0.flag != nil }), let route = context.endpointPath,
            let declared = DeclaredQueryParameters.of(method: request.method.rawValue, path: route)
        else { return try await next(request, context) }
        var changed = false
        let query = pairs.map { pair -> String in
            guard let flag = pair.flag, let name = Routes.formDecoded(pair.name), declared[name]?.kind == .boolean else { return String(pair.raw) }
            changed = true
            return pair.name + "=" + flag
        }
        guard changed else { return try await next(request, context) }
        var head = request.head
        head.path = path[..<mark] + "?" + query.joined(separator: "&")
        return try await next(Request(head: head, body: request.body), context)
    }

    /// `true` or `false` for a query value (as sent, percent-encoded) that spells one of them
    /// otherwise; nil for one that is either already, or no flag at all.
    private static func rewritten(_ value: Substring) -> String? {
        guard let text = Routes.formDecoded(value), let flag = Routes.flag(text).map(String.init), flag != text else { return nil }
        return flag
    }
}
