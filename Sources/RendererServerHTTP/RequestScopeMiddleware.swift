import HTTPTypes
import Hummingbird
import Synchronization

/// Keeps the request being answered in a task local while a generated route answers it (the
/// server's and collaboration's), whose handlers are given only their operation's typed
/// input: what a served document needs of the request (the reader's key or cookie,
/// `?renderer=`, a collaboration token) is read from there, as the hand-written routes read
/// it. A handler may also give the answer a header the generated code cannot write as it is
/// (``Scope/answer(_:_:)``).
package struct RequestScopeMiddleware: RouterMiddleware {
    /// A request and its context, as Hummingbird gives them, and the headers its handler adds
    /// to the answer.
    package final class Scope: Sendable {
        package let request: Request
        package let context: ServerRequestContext
        private let headers = Mutex(HTTPFields())

        init(request: Request, context: ServerRequestContext) {
            self.request = request
            self.context = context
        }

        /// Answers the request with header `name` set to `value`, as it is. The generated code
        /// writes the headers the document describes as URI components (RFC 6570's simple
        /// style), which would percent-encode a `Location` path's slashes.
        package func answer(_ name: HTTPField.Name, _ value: String) {
            headers.withLock { $0[name] = value }
        }

        fileprivate var answerHeaders: HTTPFields { headers.withLock { $0 } }
    }

    @TaskLocal private static var current: Scope?

    package init() {}

    package func handle(_ request: Request, context: ServerRequestContext, next: (Request, ServerRequestContext) async throws -> Response) async throws -> Response {
        let scope = Scope(request: request, context: context)
        var response = try await Self.$current.withValue(scope) { try await next(request, context) }
        for field in scope.answerHeaders { response.headers[field.name] = field.value }
        return response
    }

    /// The request a generated route is answering; one reached without this middleware is
    /// the server's own fault (500).
    package static func scope() throws -> Scope {
        guard let current else { throw APIError(.internalServerError, code: "internal", "a generated route ran outside its request") }
        return current
    }
}
