import CPopplerGlib
import CPopplerBridge
import RendererEngine

/// Turns Poppler's errors into `RendererError`s: the one place that decides their codes.
enum PopplerErrors {
    static let rendererID = "poppler"

    /// The error for a document Poppler would not open; frees `error`.
    static func openFailure(_ error: UnsafeMutablePointer<GError>?, source: DocumentSource, passwordGiven: Bool) -> RendererError {
        let engineMessage = error.map { String(cString: $0.pointee.message) }
        defer { g_error_free(error) }
        guard let error, error.pointee.domain == poppler_error_quark() else {
            return RendererError(.ioFailure, "Poppler could not read \(source.displayName)", rendererID: rendererID, engineMessage: engineMessage)
        }
        if error.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
            return passwordGiven
                ? RendererError(.wrongPassword, "the password given for \(source.displayName) is neither its user nor its owner password", rendererID: rendererID)
                : RendererError(.passwordRequired, "\(source.displayName) is encrypted: a password is needed to open it", rendererID: rendererID)
        }
        return RendererError(
            .damaged, "\(source.displayName) is damaged: Poppler could not read it, even after trying to reconstruct it",
            rendererID: rendererID, engineMessage: engineMessage)
    }

    /// A failure of Poppler's core API after poppler-glib opened the same file.
    static func coreUnavailable(_ source: DocumentSource) -> RendererError {
        RendererError(.damaged, "Poppler's core API could not open \(source.displayName), which poppler-glib opened", rendererID: rendererID)
    }

    /// A failed save, from Poppler's error code (ErrorCodes.h: 1 when the file cannot be
    /// created, 10 on a write error, 11 when the original changed on disk since it was opened).
    static func saveFailure(_ status: Int32, doing action: String) -> RendererError {
        let reason: String
        switch status {
        case 1: reason = "the file cannot be created"
        case 10: reason = "writing failed"
        case 11: reason = "the original file changed on disk since it was opened"
        default: reason = "Poppler error \(status)"
        }
        return RendererError(status == 1 || status == 10 ? .ioFailure : .engineFailure, "Poppler could not \(action): \(reason)", rendererID: rendererID)
    }

    /// A page Poppler could not load, or could not do `action` with ("extract the text of").
    static func pageFailure(_ index: Int, doing action: String = "load") -> RendererError {
        RendererError(.damaged, "Poppler could not \(action) page \(index + 1)", rendererID: rendererID)
    }

    /// A refused annotation edit of Poppler's core API.
    static func editFailure(_ status: cpoppler_status, doing action: String) -> RendererError {
        let reason: String
        let code: RendererError.Code
        switch status {
        case CPOPPLER_NO_PAGE: (code, reason) = (.damaged, "the page cannot be loaded")
        case CPOPPLER_NO_ANNOTATION: (code, reason) = (.invalidArgument, "there is no such annotation")
        case CPOPPLER_UNSUPPORTED: (code, reason) = (.unsupported, "Poppler cannot do that with this kind of annotation")
        case CPOPPLER_ARGUMENT: (code, reason) = (.invalidArgument, "a field is set that this kind of annotation cannot have")
        default: (code, reason) = (.limitExceeded, "out of memory")
        }
        return RendererError(code, "Poppler could not \(action): \(reason)", rendererID: rendererID)
    }

    /// A refused PDF-object edit of Poppler's core API (PopplerObjects.swift).
    static func objectFailure(_ status: cpoppler_status, doing action: String) -> RendererError {
        switch status {
        case CPOPPLER_NO_PAGE: return RendererError(.damaged, "Poppler could not \(action): the page cannot be loaded", rendererID: rendererID)
        case CPOPPLER_NO_ANNOTATION: return RendererError(.invalidArgument, "Poppler could not \(action): there is no such annotation", rendererID: rendererID)
        case CPOPPLER_OUT_OF_MEMORY: return RendererError(.limitExceeded, "Poppler could not \(action): out of memory", rendererID: rendererID)
        default: return RendererError(.engineFailure, "Poppler could not \(action): the object was refused", rendererID: rendererID)
        }
    }

    /// A cairo failure while drawing or encoding.
    static func cairoFailure(_ status: cairo_status_t, doing action: String) -> RendererError {
        let engineMessage = String(cString: cairo_status_to_string(status))
        let code: RendererError.Code
        switch status {
        case CAIRO_STATUS_NO_MEMORY: code = .limitExceeded
        case CAIRO_STATUS_WRITE_ERROR: code = .ioFailure
        default: code = .engineFailure
        }
        return RendererError(code, "cairo could not \(action)", rendererID: rendererID, engineMessage: engineMessage)
    }
}
