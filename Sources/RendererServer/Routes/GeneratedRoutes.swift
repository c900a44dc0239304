import Foundation
import HTTPTypes
import OpenAPIRuntime
import RendererProvider
import RendererServerHTTP

/// The operations whose types and registration swift-openapi-generator made from the
/// OpenAPI document (`make openapi`, into `Generated/`; `openapi-generator-config.yaml`
/// lists them): each takes and answers the document's own types, so the document and the
/// server cannot disagree on them. The handlers live in the extensions named for what they
/// serve; the request itself is reached through ``RequestScopeMiddleware``. What a handler
/// throws becomes a problem document as on every other route (``ErrorMiddleware`` takes off
/// the generated code's wrapping); the other operations are still registered by hand in
/// ``Routes/register(on:)``.
struct GeneratedRoutes: APIProtocol, GeneratedRouteSupport {
    let routes: Routes

    var bodyLimit: Int { routes.bodyLimit }

    var context: ServerContext { routes.context }

    /// The served document the request names, let in as ``Routes/servedDocument(_:_:)`` lets
    /// the hand-written routes' documents in.
    func servedDocument() async throws -> ServedDocument {
        let scope = try RequestScopeMiddleware.scope()
        return try await routes.servedDocument(scope.request, scope.context)
    }

    /// The served document the request names, and the reader it comes from (the `Reader-ID`
    /// header or the viewer's reader cookie).
    func readerDocument() async throws -> (ServedDocument, String) {
        let scope = try RequestScopeMiddleware.scope()
        let reader = try context.readers.reader(of: scope.request)
        return (try await routes.servedDocument(scope.request, scope.context), reader)
    }

    /// The renderer the request names (`?renderer=` or `?engine=`), or `document`'s default
    /// (``Routes/rendererID(_:_:)``).
    func rendererID(_ document: ServedDocument) async throws -> String {
        try await routes.rendererID(try RequestScopeMiddleware.scope().request, document)
    }

    /// Runs `body` on the served document the request names, as ``Routes/engineWork(_:_:_:)``
    /// does for the hand-written routes (admitted with the reader's key, through the engine
    /// `?renderer=` names, given to `body`, by the queue, within the time limit).
    func engineWork<T: Sendable>(_ body: @escaping @Sendable (Document, String) throws -> T) async throws -> T {
        let scope = try RequestScopeMiddleware.scope()
        return try await routes.engineWork(scope.request, scope.context, body)
    }

    /// Answers with `Location` naming what the request made: document `id`'s API path followed
    /// by `components` (``Routes/path(document:_:)``), set as it is (``RequestScopeMiddleware/Scope/answer(_:_:)``).
    func answerLocation(document id: String, _ components: String...) throws {
        try RequestScopeMiddleware.scope().answer(.location, Routes.path(document: id, components))
    }

    /// Answers with `headers` as they are (a download's, say:
    /// `RouteSupport.downloadHeaders(name:)`), through ``RequestScopeMiddleware/Scope/answer(_:_:)``.
    func answer(_ headers: HTTPFields) throws {
        let scope = try RequestScopeMiddleware.scope()
        for field in headers { scope.answer(field.name, field.value) }
    }
}
