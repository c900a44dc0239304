import CPopplerGlib
import Foundation
import Logging
import RendererEngine

/// The Poppler engine (poppler-glib over cairo) as a `Renderer`, with id `poppler`.
public struct PopplerRenderer: Renderer {
    public let id = "poppler"
    public let engineName = "Poppler"
    public let contentTypes: Set<ContentType> = [.pdf]
    /// Every capability for PDF but redaction, editing attachments, changing password
    /// protection (its writer keeps a file's encryption) and reflow (Poppler reads PDF only).
    public let capabilities: Set<Capability> = Set(Capability.allCases).subtracting([.redact, .reflow, .editAttachments, .protect])
    public var annotationSupport: AnnotationSupport { Self.annotations }
    /// Where Poppler's messages go (never to stderr).
    public let logger: Logger

    /// A Poppler renderer whose documents' messages go to `logger`.
    public init(logger: Logger = Logger(label: "renderer.poppler")) {
        self.logger = logger
    }

    public var engineVersion: String { String(cString: poppler_get_version()) }

    /// Poppler's caches are fixed in size by Poppler itself (64 fonts for cairo, 4 CMaps),
    /// so `limits.cacheBytes` has nothing to bound.
    public func openDocument(_ source: DocumentSource, password: String?, limits: DocumentLimits) throws -> any EngineDocument {
        try PopplerLogSink.routing(to: logger) { try PopplerDocument(source: source, password: password, logger: logger) }
    }
}
