import Foundation
import Hummingbird
import RendererConversion
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// What an upload answers: the new document's id.
    struct UploadFacts: Encodable {
        var id: String
    }

    /// `POST /api/uploads`: a PDF of the reader's, the body as it is, or a JPEG, PNG or TIFF
    /// picture, kept as the PDF of it (a page per picture, JPEG data as it is, made by the
    /// uploads' renderers), or, when the server converts them, an office document kept as
    /// the PDF LibreOffice makes of it (422 when LibreOffice cannot, crashes or takes past
    /// its time limit), and an HTML document as the PDF Chromium prints of it (422 when it
    /// cannot or the page takes past its time limit). It is kept (201, its id)
    /// only when an engine opens it as a document (an encrypted one may need its password
    /// later); otherwise nothing of it stays: 413 past the size limit, 415 for what is not a
    /// PDF, 422 for what no engine reads, 503 while uploads being received take the space of
    /// all uploads. It is opened with the uploads' renderers (isolated by `hostapp serve`).
    @Sendable func upload(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let store = try uploadStore()
        var received = try await store.receive(request.body, declared: request.headers[.contentLength].flatMap { Int($0) })
        let serverContext = self.context
        do {
            if let type = try? DocumentSource.file(received.path).sniffContentType(), [.jpeg, .png, .tiff].contains(type) {
                // A picture (a scan, a photo) is kept as the PDF of it, made by an engine
                // process as uploads are opened.
                let made = store.scratchPath(), picture = received.path
                _ = try await serverContext.queue.run {
                    try await naming(picture, as: "the upload") {
                        try await serverContext.threads.run { _ in
                            try serverContext.uploadRegistry.writePDF(fromPictures: [.file(picture)], to: made)
                        }
                    }
                }
                received = try await store.replace(received, with: made)
            } else if let converter = serverContext.officeConverter, let kind = OfficeConverter.documentExtension(sniffing: received.path) {
                received = try await store.replace(received, with: try await Self.convert(received.path, as: kind, in: store, serverContext) { named, made in
                    do {
                        try converter.convert(named, to: made)
                    } catch let error as RendererError where error.code == .engineCrashed {
                        throw RendererError(.damaged, "LibreOffice failed on the upload and was ended")
                    }
                })
            } else if let converter = serverContext.htmlConverter, HTMLConverter.isHTML(sniffing: received.path) {
                received = try await store.replace(received, with: try await Self.convert(received.path, as: "html", in: store, serverContext) { named, made in
                    do {
                        try converter.convert(named, to: made)
                    } catch let error as RendererError where error.code == .limitExceeded || error.code == .engineFailure {
                        // The page's own doing (a script that never ends, a page Chromium cannot print): the upload is refused.
                        throw RendererError(.damaged, "the HTML page could not be printed: \(error.message)")
                    }
                })
            }
            guard DocumentFolder.looksLikePDF(received.path) else {
                let others = [serverContext.officeConverter.map { _ in "an office document" }, serverContext.htmlConverter.map { _ in "an HTML page" }].compactMap { $0 }
                let also = others.isEmpty ? "" : ", nor " + others.joined(separator: " or ")
                throw APIError(.unsupportedMediaType, code: "unsupported-format", "the upload is not a PDF, nor a JPEG, PNG or TIFF picture\(also)")
            }
            let path = received.path
            _ = try await serverContext.queue.run {
                try await naming(path, as: "the upload") {
                    try await serverContext.threads.run { _ in
                        do {
                            _ = try serverContext.openDocument(path, renderer: serverContext.configuration.renderer, password: nil)
                        } catch let error as RendererError where error.code == .passwordRequired {
                            // Encrypted: the reader gives the password when it is opened.
                        }
                    }
                }
            }
            let id = try await store.keep(received)
            return try Self.json(UploadFacts(id: id), status: .created, headers: Self.location(document: id))
        } catch {
            await store.discard(received)
            throw error
        }
    }

    /// The PDF `convert` makes of the document at `path` (a file of extension `kind`), in a
    /// new scratch file of `store`, on an engine thread admitted by the engine queue. The
    /// document is given its extension through a link of that name, removed after; errors
    /// name it "the upload".
    private static func convert(
        _ path: String, as kind: String, in store: UploadStore, _ context: ServerContext, by convert: @escaping @Sendable (_ named: String, _ made: String) throws -> Void
    ) async throws -> String {
        let named = store.scratchPath() + "." + kind, made = store.scratchPath()
        try FileManager.default.linkItem(atPath: path, toPath: named)
        defer { try? FileManager.default.removeItem(atPath: named) }
        try await context.queue.run {
            try await naming(named, as: "the upload") {
                try await naming(URL(fileURLWithPath: named).lastPathComponent, as: "the upload") {
                    try await context.threads.run { _ in try convert(named, made) }
                }
            }
        }
        return made
    }

    func uploadStore() throws -> UploadStore {
        guard let store = context.uploads else { throw APIError.notFound("this server takes no uploads") }
        return store
    }
}
