import CMuPDF
import RendererEngine

/// Turns MuPDF's errors into `RendererError`s: the one place that decides their codes.
enum MuPDFErrors {
    static let rendererID = "mupdf"

    /// The error for a failed call, whose engine message is in `error`.
    static func translate(_ error: cmupdf_error, doing action: String, code: RendererError.Code = .engineFailure) -> RendererError {
        let engineMessage = message(of: error)
        if error.code == Int32(CMUPDF_ERROR_ABORTED) {
            return RendererError(.cancelled, "the operation was cancelled while MuPDF was drawing", rendererID: rendererID)
        }
        let finalCode: RendererError.Code = error.code == Int32(CMUPDF_ERROR_MEMORY) ? .limitExceeded : code
        let detail = finalCode == .limitExceeded ? "MuPDF ran out of memory" : "MuPDF could not \(action)"
        return RendererError(finalCode, detail, rendererID: rendererID, engineMessage: engineMessage)
    }

    /// A document that MuPDF could not open even after trying to repair it.
    static func openFailure(_ error: cmupdf_error, source: DocumentSource) -> RendererError {
        if error.code == Int32(CMUPDF_ERROR_MEMORY) { return translate(error, doing: "open the document") }
        return RendererError(
            .damaged, "\(source.displayName) is damaged: MuPDF could not read it, even after trying to repair it",
            rendererID: rendererID, engineMessage: message(of: error))
    }

    /// A file MuPDF opened only by repairing it, refused by a renderer that does not serve those.
    static func repaired(_ source: DocumentSource) -> RendererError {
        RendererError(.damaged, "\(source.displayName) is damaged: MuPDF had to repair it to open it", rendererID: rendererID)
    }

    static func passwordRequired(_ source: DocumentSource) -> RendererError {
        RendererError(.passwordRequired, "\(source.displayName) is encrypted: a password is needed to open it", rendererID: rendererID)
    }

    static func wrongPassword(_ source: DocumentSource) -> RendererError {
        RendererError(.wrongPassword, "the password given for \(source.displayName) is neither its user nor its owner password", rendererID: rendererID)
    }

    static func message(of error: cmupdf_error) -> String {
        withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
