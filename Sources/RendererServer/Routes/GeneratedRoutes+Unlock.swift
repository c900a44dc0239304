import Foundation
import Hummingbird
import OpenAPIRuntime
import RendererProvider
import RendererServerHTTP

/// An encrypted document unlocked with a reader's password, and the key that then stands for
/// it (``DocumentUnlocks``).
extension GeneratedRoutes {
    /// Checks the password of an encrypted document (five tries per document, and one more a
    /// minute, then 429) and answers a key for reading it, in a session cookie (HttpOnly,
    /// SameSite=Strict) and in the body for the `Document-Key` header. A document that opens
    /// without the reader's password answers `{"passwordNeeded": false}` and no key. 422
    /// `wrong-password` for a password that does not open it. The password is kept in memory
    /// only, never logged.
    func unlock(_ input: Operations.Unlock.Input) async throws -> Operations.Unlock.Output {
        let scope = try RequestScopeMiddleware.scope()
        let id = try Routes.pathParameter("id", scope.context)
        let document = try await routes.library.document(id)
        try await context.unlockLimiter.admit(id)
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let password = try Self.library(body, as: Payload.Unlock.self).password
        guard password.utf8.count <= 1024 else { throw APIError.badRequest("a password is at most 1,024 bytes") }
        if try await document.opensWithoutReaderPassword() {
            return .ok(.init(body: .json(.init(passwordNeeded: false))))
        }
        try await document.check(password: password)
        let key = await context.unlocks.key(for: document.path, password: password)
        try await document.admit(password: password)
        // A session cookie: the browser forgets it when it closes.
        scope.answer(.setCookie, Cookie(name: keyCookie(id), value: key, path: "/", secure: false, httpOnly: true, sameSite: .strict).description)
        return .ok(.init(body: .json(.init(passwordNeeded: true, key: key))))
    }

    /// Forgets the request's key for the document (the reader closed it); 204, with the cookie
    /// cleared.
    func forgetUnlock(_ input: Operations.ForgetUnlock.Input) async throws -> Operations.ForgetUnlock.Output {
        let scope = try RequestScopeMiddleware.scope()
        let id = try Routes.pathParameter("id", scope.context)
        let document = try await routes.library.document(id)
        await context.unlocks.forget(scope.request, document: (id, document.path), token: context.configuration.token)
        scope.answer(.setCookie, Cookie(name: keyCookie(id), value: "", maxAge: 0, path: "/", secure: false, httpOnly: true, sameSite: .strict).description)
        return .noContent(.init())
    }

    private func keyCookie(_ id: String) -> String {
        DocumentUnlocks.cookieName(document: id, token: context.configuration.token)
    }
}
