import Foundation
import OpenAPIRuntime
import RendererOptimize
import RendererProvider
import RendererServerHTTP
import RendererStamps

/// Copies of a served document with new password protection, without, optimised for fast
/// web view, or stamped: downloads, never stored by the server. The served file is left as
/// it is.
extension GeneratedRoutes {
    /// The document as a new PDF encrypted with the body's passwords and permissions
    /// (``Payload/Protect``; AES-256 unless `aes-128` is asked). Needs the `saveTo` setting
    /// and, for an encrypted document, the request's own key unlocked with its owner password
    /// (403 otherwise, whatever other readers unlocked it with); 422 for passwords the
    /// standard cannot carry, and on an engine without an encrypting writer.
    func protectedCopy(_ input: Operations.ProtectedCopy.Input) async throws -> Operations.ProtectedCopy.Output {
        let document = try await servedDocument()
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let protection = try Self.library(body, as: Payload.Protect.self).protection()
        return .ok(.init(body: .pdf(try await copy(of: document, suffix: "protected") { path, password in
            try await document.writeCopy(to: path, protection: protection, password: password)
        })))
    }

    /// The document as a new unencrypted PDF. Needs the `saveTo` setting and, for an
    /// encrypted document, the request's own key unlocked with its owner password (403 with
    /// the user password alone).
    func unprotectedCopy(_ input: Operations.UnprotectedCopy.Input) async throws -> Operations.UnprotectedCopy.Output {
        let document = try await servedDocument()
        return .ok(.init(body: .pdf(try await copy(of: document, suffix: "unprotected") { path, password in
            try await document.writeCopy(to: path, protection: nil, password: password)
        })))
    }

    /// The file as stored, linearised for fast web view and packed into object streams
    /// (``ServedDocument/writeOptimizedCopy(to:password:options:)``), with images finer than
    /// `imageDPI` resampled as JPEG when it is given. Needs the `saveTo` setting; an encrypted
    /// document stays encrypted and needs the request's key unlocked. 400 for an option that
    /// is not a number, 422 for one out of range.
    func optimizedCopy(_ input: Operations.OptimizedCopy.Input) async throws -> Operations.OptimizedCopy.Output {
        let document = try await servedDocument()
        let options = PDFOptimizer.Options(imageDPI: input.query.imageDPI, jpegQuality: input.query.jpegQuality ?? PDFOptimizer.Options().jpegQuality)
        try options.validate()
        return .ok(.init(body: .pdf(try await copy(of: document, suffix: "optimized") { path, password in
            try await document.writeOptimizedCopy(to: path, password: password, options: options)
        })))
    }

    /// The document with the body's stamps (`StampOptions`: a watermark, header, footer and
    /// Bates numbers; no font file, which a client cannot name) as text on its pages. Needs
    /// the `editing` and `saveTo` settings and the PDF's modify permission (403); 422 for a
    /// stamp that cannot be drawn (empty text, characters no installed font draws, a size,
    /// colour or opacity out of range).
    func stampedCopy(_ input: Operations.StampedCopy.Input) async throws -> Operations.StampedCopy.Output {
        let document = try await servedDocument()
        try await document.require(.saveTo)
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let stamps = try Self.library(body, as: StampOptions.self).stamps()
        return .ok(.init(body: .pdf(try await copy(of: document, suffix: "stamped") { path, password in
            try await document.writeStampedCopy(to: path, stamps: stamps, password: password)
        })))
    }

    /// Has `write` write the copy into a temporary folder, with the password the request's
    /// key unlocked; answers its bytes as a download (and removes the folder).
    private func copy(of document: ServedDocument, suffix: String, write: @escaping @Sendable (String, String?) async throws -> Void) async throws -> HTTPBody {
        let request = try RequestScopeMiddleware.scope().request
        let password = await context.unlocks.password(in: request, document: (document.id, document.path), token: context.configuration.token)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("renderer-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("copy.pdf").path
        try await context.queue.run { try await write(path, password) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try answer(Routes.downloadHeaders(name: URL(fileURLWithPath: document.id).deletingPathExtension().lastPathComponent + "-\(suffix).pdf"))
        return HTTPBody(bytes)
    }
}
