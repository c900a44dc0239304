import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// `POST /api/documents/{id}/unlock` with `{"password": "..."}`: checks the password of an
    /// encrypted document (five tries per document, and one more a minute, then 429) and
    /// answers a key for reading it, in a session cookie (HttpOnly, SameSite=Strict) and in
    /// the body for the `Document-Key` header. A document that opens without the reader's
    /// password answers `{"passwordNeeded": false}` and no key. 422 `wrong-password` for a
    /// password that does not open it. The password is kept in memory only, never logged.
    @Sendable func unlock(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let id = try Self.pathParameter("id", context)
        let document = try await library.document(id)
        try await self.context.unlockLimiter.admit(id)
        let password = try await decode(Payload.Unlock.self, from: request).password
        guard password.utf8.count <= 1024 else { throw APIError.badRequest("a password is at most 1,024 bytes") }
        if try await document.opensWithoutReaderPassword() {
            return try Self.json(Payload.Unlocked(passwordNeeded: false, key: nil))
        }
        try await document.check(password: password)
        let key = await self.context.unlocks.key(for: document.path, password: password)
        try await document.admit(password: password)
        var response = try Self.json(Payload.Unlocked(passwordNeeded: true, key: key))
        // A session cookie: the browser forgets it when it closes.
        response.setCookie(
            Cookie(name: keyCookie(id), value: key, path: "/", secure: false, httpOnly: true, sameSite: .strict))
        return response
    }

    /// `DELETE /api/documents/{id}/unlock`: forgets the request's key for the document (the
    /// reader closed it); 204, with the cookie cleared.
    @Sendable func forgetUnlock(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let id = try Self.pathParameter("id", context)
        let document = try await library.document(id)
        await self.context.unlocks.forget(request, document: (id, document.path), token: self.context.configuration.token)
        var response = Response(status: .noContent)
        response.setCookie(Cookie(name: keyCookie(id), value: "", maxAge: 0, path: "/", secure: false, httpOnly: true, sameSite: .strict))
        return response
    }

    private func keyCookie(_ id: String) -> String {
        DocumentUnlocks.cookieName(document: id, token: self.context.configuration.token)
    }
}
