import Foundation
import Hummingbird
import RendererProvider
import RendererProviderXFDF
import RendererServerHTTP
import RendererSignatures

/// What the collaboration routes need of the server that mounts them: its documents, let in
/// as the server lets in any request for them (a reader's unlock, its catalogue, its queue).
package protocol CollaborationHost: Sendable {
    /// The served document `id` for `request`; throws what the server answers a request for
    /// it with (404 for a document it does not serve, as an `APIError`).
    func document(_ id: String, for request: Request) async throws -> any CollaboratedDocument
}

/// A served document, as the collaboration routes work on it: each call runs on the
/// server's engines under its queue and time limit.
package protocol CollaboratedDocument: Sendable {
    /// The annotations the file holds, on every page: a new layer's first content.
    func annotations() async throws -> [Annotation]

    /// The number of pages.
    func pageCount() async throws -> Int

    /// The XFDF command in `data`, read with this document's page spaces.
    func xfdfCommand(_ data: Data) async throws -> XFDFCommand

    /// Runs `body` on a document of its own, opened by the engine `request` names
    /// (`?renderer=`) or the default: one that is changed and dropped, never shared.
    func withPrivateCopy<T: Sendable>(for request: Request, _ body: @escaping @Sendable (Document) throws -> T) async throws -> T

    /// The file as served, byte for byte (streamed, with byte ranges), saved as `name`.
    func download(_ request: Request, context: ServerRequestContext, name: String) async throws -> Response

    /// Signs the file with `identity` as `body` asks (the JSON of a signing request, read as
    /// the server's own signing route reads it; 400 when it asks what cannot be), in an
    /// incremental update saved over it: every signature field's verdict then, by the engine
    /// `request` names, and the path of the document's signatures.
    func sign(with identity: SigningIdentity, asked body: Data, _ request: Request) async throws -> (verdicts: [SignatureVerification], location: String)
}
