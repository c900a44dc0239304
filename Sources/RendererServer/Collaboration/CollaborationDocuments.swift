import Foundation
import Hummingbird
import RendererCollaborationServer
import RendererProvider
import RendererProviderXFDF
import RendererServerHTTP
import RendererSignatures

/// The server's side of the collaboration routes (`RendererCollaborationServer`): its
/// documents, let in as any request for them is (``Routes/admitted(_:to:)``).
struct CollaborationDocuments: CollaborationHost {
    let routes: Routes

    func document(_ id: String, for request: Request) async throws -> any CollaboratedDocument {
        CollaboratedServedDocument(routes: routes, document: try await routes.admitted(request, to: id))
    }
}

/// A served document as the collaboration routes work on it, through the server's pools,
/// queue and time limit.
struct CollaboratedServedDocument: CollaboratedDocument {
    let routes: Routes
    let document: ServedDocument

    func annotations() async throws -> [Annotation] {
        try await document.annotations(pageAt: nil)
    }

    func pageCount() async throws -> Int {
        try await document.pageCount()
    }

    func xfdfCommand(_ data: Data) async throws -> XFDFCommand {
        let renderer = try await document.defaultRendererID()
        return try await document.pool(renderer).run(timeLimit: routes.context.configuration.timeLimit) { document, _ in
            try XFDF.command(from: data, pageSpace: { try document.pageSpace(pageAt: $0) })
        }
    }

    /// Opened on an engine thread, admitted by the queue, never taken from a pool.
    func withPrivateCopy<T: Sendable>(for request: Request, _ body: @escaping @Sendable (Document) throws -> T) async throws -> T {
        let renderer = try await routes.rendererID(request, document)
        let (id, path, context, password) = (document.id, document.path, routes.context, await document.openingPassword)
        return try await context.queue.run {
            try await naming(path, as: id) {
                try await context.threads.run { _ in
                    try body(try context.openDocument(path, renderer: .id(renderer), password: password))
                }
            }
        }
    }

    func download(_ request: Request, context: ServerRequestContext, name: String) async throws -> Response {
        let version = await document.currentVersion()
        return try await FileDownload(path: document.path, name: name, eTag: Routes.eTag(version, "file")).response(to: request, context: context)
    }

    func sign(with identity: SigningIdentity, asked body: Data, _ request: Request) async throws -> (verdicts: [SignatureVerification], location: String) {
        let options = try Routes.decoded(Payload.SignRequest.self, from: body).options()
        return (try await routes.signed(document, as: identity, options: options, request), Routes.path(document: document.id, ["signatures"]))
    }
}
