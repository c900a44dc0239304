#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

extension Error {
    /// This error in words for a message after "cannot read x: ": a ``RendererError``'s (or
    /// another `LocalizedError`'s) description, the system's words for a failed file
    /// operation (`strerror` of its errno), a `DecodingError`'s summary, else the error's
    /// own description. FoundationEssentials, which the engine modules use, has no
    /// `localizedDescription`.
    package var reason: String {
        if let localized = self as? any LocalizedError, let text = localized.errorDescription { return text }
        if let error = self as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
        if let error = self as? CocoaError {
            if let underlying = error.underlying as? POSIXError { return String(cString: strerror(underlying.code.rawValue)) }
            // Its description would show the paths in its user info.
            return "file error \(error.code.rawValue)"
        }
        if let error = self as? DecodingError { return error.summary }
        return String(describing: self)
    }
}
