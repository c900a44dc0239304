import Foundation
import Hummingbird

/// The passwords readers gave for encrypted documents, in this process's memory only: never
/// written, logged or sent back. A reader who unlocks a document gets a key (32 random bytes)
/// in a session cookie, or in the `Document-Key` header for clients without cookies; each
/// request that carries it reads the document with that password. The keys end with the
/// server, when the reader forgets the document (``forget(_:document:)``), or when
/// `capacity` newer keys push them out.
actor DocumentUnlocks {
    private let capacity: Int
    private var passwords: [String: (path: String, password: String)] = [:]
    private var order: [String] = []

    init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// The header a client without cookies carries the key in.
    static let header = HTTPFields.Element.Name("Document-Key")!

    /// The cookie that carries the key for document `id` on the server whose token is `token`:
    /// named from both, so that neither another server on the host nor another document
    /// takes it for its own.
    static func cookieName(document id: String, token: String) -> String {
        Secrets.cookieName("renderer_key_", for: token, id, bytes: 8)
    }

    /// A new key for reading the file at `path` with `password`, which opened it.
    func key(for path: String, password: String) -> String {
        let key = Secrets.random()
        passwords[key] = (path, password)
        order.append(key)
        if order.count > capacity { passwords.removeValue(forKey: order.removeFirst()) }
        return key
    }

    /// The password the key `request` carries for `document` (id and path), if it carries one.
    func password(in request: Request, document: (id: String, path: String), token: String) -> String? {
        keys(in: request, document: document, token: token).first.flatMap { passwords[$0]?.password }
    }

    /// Forgets the key `request` carries for `document`.
    func forget(_ request: Request, document: (id: String, path: String), token: String) {
        for key in keys(in: request, document: document, token: token) {
            passwords.removeValue(forKey: key)
            order.removeAll { $0 == key }
        }
    }

    /// The keys `request` carries (its header, its cookie) that were given for `document`.
    private func keys(in request: Request, document: (id: String, path: String), token: String) -> [String] {
        [request.headers[Self.header], request.cookies[Self.cookieName(document: document.id, token: token)]?.value]
            .compactMap { $0 }.filter { passwords[$0]?.path == document.path }
    }
}
