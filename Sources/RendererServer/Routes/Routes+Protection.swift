import Foundation
import Hummingbird
import RendererOptimize
import RendererProvider
import RendererStamps
import RendererServerHTTP

/// Copies of a served document with new password protection, without, optimised for fast
/// web view, or stamped: downloads, never stored by the server. The served file is left as
/// it is.
extension Routes {
    /// `POST /api/documents/{id}/protected` with ``Payload/Protect``: the document as a new
    /// PDF encrypted with those passwords and permissions (AES-256 unless `aes-128` is asked),
    /// as a download. Needs the `saveTo` setting and, for an encrypted document, the request's
    /// own key unlocked with its owner password (403 otherwise, whatever other readers
    /// unlocked it with); 422 for passwords the standard cannot carry, and on an engine
    /// without an encrypting writer.
    @Sendable func protectedCopy(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let protection = try await decode(Payload.Protect.self, from: request).protection()
        return try await copy(of: document, request, suffix: "protected") { path, password in
            try await document.writeCopy(to: path, protection: protection, password: password)
        }
    }

    /// `POST /api/documents/{id}/unprotected`: the document as a new unencrypted PDF, as a
    /// download. Needs the `saveTo` setting and, for an encrypted document, the request's own
    /// key unlocked with its owner password (403 with the user password alone).
    @Sendable func unprotectedCopy(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        return try await copy(of: document, request, suffix: "unprotected") { path, password in
            try await document.writeCopy(to: path, protection: nil, password: password)
        }
    }

    /// `POST /api/documents/{id}/optimized?imageDPI=&jpegQuality=`: the file as stored,
    /// linearised for fast web view and packed into object streams
    /// (``ServedDocument/writeOptimizedCopy(to:password:options:)``), with images finer than
    /// `imageDPI` resampled as JPEG when it is given, as a download. Needs the `saveTo`
    /// setting; an encrypted document stays encrypted and needs the request's key unlocked.
    /// 400 for an option that is not a number, 422 for one out of range.
    @Sendable func optimizedCopy(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let options = PDFOptimizer.Options(
            imageDPI: try Self.query("imageDPI", request, as: Double.self),
            jpegQuality: try Self.query("jpegQuality", request, as: Int.self) ?? PDFOptimizer.Options().jpegQuality)
        try options.validate()
        return try await copy(of: document, request, suffix: "optimized") { path, password in
            try await document.writeOptimizedCopy(to: path, password: password, options: options)
        }
    }

    /// `POST /api/documents/{id}/stamped` with `StampOptions` (a watermark, header, footer
    /// and Bates numbers; no font file, which a client cannot name): the document with those
    /// stamps as text on its pages, as a download. Needs the `editing` and `saveTo` settings
    /// and the PDF's modify permission (403); 422 for a stamp that cannot be drawn (empty
    /// text, characters no installed font draws, a size, colour or opacity out of range).
    @Sendable func stampedCopy(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        // Refused by the settings before the body is read.
        try await document.require(.saveTo)
        let stamps = try await decode(StampOptions.self, from: request).stamps()
        return try await copy(of: document, request, suffix: "stamped") { path, password in
            try await document.writeStampedCopy(to: path, stamps: stamps, password: password)
        }
    }

    /// Has `write` write the copy into a temporary folder, with the password the request's
    /// key unlocked; answers its bytes, and removes the folder.
    private func copy(
        of document: ServedDocument, _ request: Request, suffix: String, write: @escaping @Sendable (String, String?) async throws -> Void
    ) async throws -> Response {
        let password = await self.context.unlocks.password(in: request, document: (document.id, document.path), token: self.context.configuration.token)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("renderer-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("copy.pdf").path
        try await self.context.queue.run { try await write(path, password) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let name = URL(fileURLWithPath: document.id).deletingPathExtension().lastPathComponent + "-\(suffix).pdf"
        return Self.data(bytes, type: "application/pdf", headers: [
            .contentDisposition: FileDownload.disposition(name), .init("X-Content-Type-Options")!: "nosniff", .cacheControl: "private, no-store",
        ])
    }
}
