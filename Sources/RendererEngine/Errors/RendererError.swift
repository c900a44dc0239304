#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one error type of the API: a code to switch on, a message for a person, the backend
/// that raised it and, where an engine said something, the engine's own words.
public struct RendererError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure an error is. New codes may be added in any release, so a
    /// `switch` over codes needs a `default` branch; the raw value (`file-not-found`) is what
    /// crosses process and network boundaries.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// The file does not exist.
        public static let fileNotFound = Code(rawValue: "file-not-found")
        /// The input is not a PDF (or not a content type any renderer opens).
        public static let unsupportedFormat = Code(rawValue: "unsupported-format")
        /// The input looks like a PDF but is too damaged to open or draw.
        public static let damaged = Code(rawValue: "damaged")
        /// The document is encrypted and no password was given.
        public static let passwordRequired = Code(rawValue: "password-required")
        /// A password was given and it is neither the user nor the owner password.
        public static let wrongPassword = Code(rawValue: "wrong-password")
        /// A page index outside `0..<pageCount`.
        public static let pageOutOfRange = Code(rawValue: "page-out-of-range")
        /// The renderer lacks the capability the operation needs.
        public static let unsupported = Code(rawValue: "unsupported")
        /// The request is larger than a limit allows (pixels, resolution, time, memory).
        public static let limitExceeded = Code(rawValue: "limit-exceeded")
        /// The operation was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// An argument makes no sense (a zero resolution, a clip outside the page, an unknown renderer).
        public static let invalidArgument = Code(rawValue: "invalid-argument")
        /// The engine failed for a reason none of the other codes describes.
        public static let engineFailure = Code(rawValue: "engine-failure")
        /// The process the engine ran in (in isolation) ended abnormally: the engine crashed,
        /// ran out of memory or stopped answering, and was ended. The caller is unharmed.
        public static let engineCrashed = Code(rawValue: "engine-crashed")
        /// Reading or writing a file failed.
        public static let ioFailure = Code(rawValue: "io-failure")
        /// The document's settings or the PDF's own permissions do not allow the operation;
        /// the message names the setting or permission.
        public static let notPermitted = Code(rawValue: "not-permitted")
        /// The document's settings set an expiry date, and it has passed.
        public static let expired = Code(rawValue: "expired")
        /// The session was closed (or never opened); open a new one.
        public static let sessionClosed = Code(rawValue: "session-closed")
        /// Someone else changed a file since it was read; nothing was overwritten, and the
        /// message says where both versions are.
        public static let conflict = Code(rawValue: "conflict")
        /// The key given does not open an encrypted file.
        public static let wrongKey = Code(rawValue: "wrong-key")
        /// Stored data failed its integrity check: changed, cut short, reordered or swapped
        /// since it was written. Nothing read from it is returned.
        public static let tampered = Code(rawValue: "tampered")

        /// Every code this version of the API defines, in the order they are documented.
        public static let known: [Code] = [
            .fileNotFound, .unsupportedFormat, .damaged, .passwordRequired, .wrongPassword, .pageOutOfRange,
            .unsupported, .limitExceeded, .cancelled, .invalidArgument, .engineFailure, .engineCrashed, .ioFailure,
            .notPermitted, .expired, .sessionClosed, .conflict, .wrongKey, .tampered,
        ]
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, in words a person understands.
    public var message: String
    /// The id of the renderer that raised the error, if one did.
    public var rendererID: String?
    /// What the engine itself reported, verbatim, if anything.
    public var engineMessage: String?

    /// An error of `code` with a message for people, the renderer that raised it and the engine's
    /// own words.
    public init(_ code: Code, _ message: String, rendererID: String? = nil, engineMessage: String? = nil) {
        self.code = code
        self.message = message
        self.rendererID = rendererID
        self.engineMessage = engineMessage
    }

    /// The message, after the renderer's id and followed by the engine's words when there
    /// are any: `poppler: Poppler could not load page 3 (engine: ...)`.
    public var description: String {
        var text = message
        if let rendererID { text = "\(rendererID): \(text)" }
        if let engineMessage, !engineMessage.isEmpty { text += " (engine: \(engineMessage))" }
        return text
    }
}

extension RendererError: LocalizedError {
    /// ``description``, so that `localizedDescription` (and any code that shows an `Error`
    /// to people through it) gives the message rather than Foundation's generic words.
    public var errorDescription: String? { description }
}

extension RendererError {
    /// The id of the renderer that raised the error.
    @available(*, deprecated, renamed: "rendererID")
    public var backend: String? {
        get { rendererID }
        set { rendererID = newValue }
    }

    /// An error of `code` raised by the renderer `backend`.
    @available(*, deprecated, renamed: "init(_:_:rendererID:engineMessage:)")
    public init(_ code: Code, _ message: String, backend: String?, engineMessage: String? = nil) {
        self.init(code, message, rendererID: backend, engineMessage: engineMessage)
    }
}
