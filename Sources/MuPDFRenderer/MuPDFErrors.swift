import CMuPDF
import RendererEngine

/// Turns MuPDF's errors into `RendererError`s: the one place that decides their codes.
enum MuPDFErrors {
    static let backend = "mupdf"

    /// The error for a failed call, whose engine message is in `error`.
    static func translate(_ error: cmupdf_error, doing action: String, code: RendererError.Code = .engineFailure) -> RendererError {
        let engineMessage = message(of: error)
        if error.code == Int32(CMUPDF_ERROR_ABORTED) {
            return RendererError(.cancelled, "the operation was cancelled while MuPDF was drawing", backend: backend)
        }
        let finalCode: RendererError.Code = error.code == Int32(CMUPDF_ERROR_MEMORY) ? .limitExceeded : code
        let detail = finalCode == .limitExceeded ? "MuPDF ran out of memory" : "MuPDF could not \(action)"
        return RendererError(finalCode, detail, backend: backend, engineMessage: engineMessage)
    }

    /// A document that MuPDF could not open even after trying to repair it.
    static func openFailure(_ error: cmupdf_error, source: DocumentSource) -> RendererError {
        if error.code == Int32(CMUPDF_ERROR_MEMORY) { return translate(error, doing: "open the document") }
        return RendererError(
            .damaged, "\(source.displayName) is damaged: MuPDF could not read it, even after trying to repair it",
            backend: backend, engineMessage: message(of: error))
    }

    /// A file MuPDF opened only by repairing it, refused by a renderer that does not serve those.
    static func repaired(_ source: DocumentSource) -> RendererError {
        RendererError(.damaged, "\(source.displayName) is damaged: MuPDF had to repair it to open it", backend: backend)
    }

    static func passwordRequired(_ source: DocumentSource) -> RendererError {
        RendererError(.passwordRequired, "\(source.displayName) is encrypted: a password is needed to open it", backend: backend)
    }

    static func wrongPassword(_ source: DocumentSource) -> RendererError {
        RendererError(.wrongPassword, "the password given for \(source.displayName) is neither its user nor its owner password", backend: backend)
    }

    private static func message(of error: cmupdf_error) -> String {
        withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
