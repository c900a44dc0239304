import CGhostscript
import Foundation
import Logging
import RendererEngine

/// Ghostscript (Debian's libgs, through its `gsapi` interface) as a `Renderer`, with id
/// `ghostscript`: it opens PDF files, from a path, memory or a stream, with or without a
/// password, reports each page's size and rotation, draws pages through the display device
/// and extracts their text through the txtwrite device. Everything else is declared absent
/// and throws `unsupported`.
///
/// Each call runs Ghostscript afresh on the document, in an instance of its own: gsapi keeps
/// no open document between calls, so a document holds only its bytes' name and its pages'
/// facts. Runs are serialised in the process.
public struct GhostscriptRenderer: Renderer {
    public let id = "ghostscript"
    public let engineName = "Ghostscript"
    public let contentTypes: Set<ContentType> = [.pdf]
    /// Opening (file, memory, stream, password), drawing and text.
    public let capabilities: Set<Capability> = [.openFile, .openMemory, .openStream, .passwords, .render, .text]
    public var annotationSupport: AnnotationSupport { .none }
    /// False: Ghostscript is chosen by name (`--backend ghostscript`), and `auto` stays
    /// MuPDF, then Poppler.
    public var isChosenByAuto: Bool { false }
    /// Where Ghostscript's messages go (never to stderr).
    public let logger: Logger

    /// A Ghostscript renderer whose runs' messages go to `logger`.
    public init(logger: Logger = Logger(label: "renderer.ghostscript")) {
        self.logger = logger
    }

    /// Such as `10.00.0`, from `gsapi_revision`.
    public var engineVersion: String {
        let revision = cgs_revision()
        return "\(revision / 1000)." + String(format: "%02d", (revision % 1000) / 10) + ".\(revision % 10)"
    }

    /// Ghostscript has no limit of its own to set from `limits`: each run starts empty and
    /// ends with the call.
    public func openDocument(_ source: DocumentSource, password: String?, limits: DocumentLimits) throws -> any EngineDocument {
        try GhostscriptDocument(source: source, password: password, logger: logger)
    }
}
