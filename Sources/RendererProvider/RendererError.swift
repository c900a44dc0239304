/// The one error type of the API: a code to switch on, a message for a person, the backend
/// that raised it and, where an engine said something, the engine's own words.
public struct RendererError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, Codable, CaseIterable {
        /// The file does not exist.
        case fileNotFound = "file-not-found"
        /// The input is not a PDF (or not a content type any renderer opens).
        case unsupportedFormat = "unsupported-format"
        /// The input looks like a PDF but is too damaged to open or draw.
        case damaged
        /// The document is encrypted and no password was given.
        case passwordRequired = "password-required"
        /// A password was given and it is neither the user nor the owner password.
        case wrongPassword = "wrong-password"
        /// A page index outside `0..<pageCount`.
        case pageOutOfRange = "page-out-of-range"
        /// The renderer lacks the capability the operation needs.
        case unsupported
        /// The request is larger than a limit allows (pixels, resolution, time, memory).
        case limitExceeded = "limit-exceeded"
        /// The operation was cancelled.
        case cancelled
        /// An argument makes no sense (a zero resolution, a clip outside the page, an unknown renderer).
        case invalidArgument = "invalid-argument"
        /// The engine failed for a reason none of the other codes describes.
        case engineFailure = "engine-failure"
        /// The process the engine ran in (in isolation) ended abnormally: the engine crashed,
        /// ran out of memory or stopped answering, and was ended. The caller is unharmed.
        case engineCrashed = "engine-crashed"
        /// Reading or writing a file failed.
        case ioFailure = "io-failure"
    }

    public var code: Code
    /// What went wrong, in words a person understands.
    public var message: String
    /// The id of the renderer that raised the error, if one did.
    public var backend: String?
    /// What the engine itself reported, verbatim, if anything.
    public var engineMessage: String?

    public init(_ code: Code, _ message: String, backend: String? = nil, engineMessage: String? = nil) {
        self.code = code
        self.message = message
        self.backend = backend
        self.engineMessage = engineMessage
    }

    public var description: String {
        var text = message
        if let backend { text = "\(backend): \(text)" }
        if let engineMessage, !engineMessage.isEmpty { text += " (engine: \(engineMessage))" }
        return text
    }
}
