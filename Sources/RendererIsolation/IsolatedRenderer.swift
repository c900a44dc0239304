#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

/// A renderer whose documents live in a child process: it serves what one renderer of the
/// engine process serves, under the same id, but each document it opens is opened there, in
/// an engine process of its own (a program that calls
/// ``IsolationWorker/serve(registry:beforePage:)``), and each call on it is sent there. An
/// engine that crashes, hangs or exhausts memory on a hostile file then costs an error
/// (`engineCrashed`, `limitExceeded`), never the caller, and the next call starts a new
/// engine process.
///
/// A document it opens is an ordinary `Document`: sessions, edits, forms, XFDF, comparison
/// and saving work as in process, within ``IsolationOptions``' time limit per call and
/// memory cap per process. Documents are read from a file or from memory; an application's
/// file system (a `DocumentSource.stream`) cannot be read from another process, so
/// ``capabilities`` leaves `openStream` out.
///
/// The calling process need not link the engine: ``renderers(servedBy:)`` asks an engine
/// process what it serves.
public struct IsolatedRenderer: Renderer {
    /// How engine processes are started and bounded.
    public let isolation: IsolationOptions
    private let engine: EngineDescription

    /// A renderer that serves `engine`'s documents from engine processes started and
    /// bounded as `isolation` says; the engine process's registry must hold a renderer with
    /// `engine`'s id.
    public init(_ engine: any Renderer, isolation: IsolationOptions) {
        self.init(EngineDescription(engine), isolation: isolation)
    }

    private init(_ engine: EngineDescription, isolation: IsolationOptions) {
        self.engine = engine
        self.isolation = isolation
    }

    /// Each of `renderers`, isolated as `isolation` says.
    public static func isolating(_ renderers: [any Renderer], with isolation: IsolationOptions) -> [any Renderer] {
        renderers.map { IsolatedRenderer($0, isolation: isolation) }
    }

    /// The renderers an engine process started as `isolation` says serves, each isolated:
    /// the calling process links none of their engines. Throws `engineCrashed` or
    /// `limitExceeded` when that process dies or does not answer in time.
    public static func renderers(servedBy isolation: IsolationOptions) throws -> [IsolatedRenderer] {
        let connection = EngineConnection(opening: nil, options: isolation, displayName: isolation.executable)
        return try connection.describe().map { IsolatedRenderer($0, isolation: isolation) }
    }

    /// The engine's id: `--backend mupdf` selects the isolated MuPDF as it does the other.
    public var id: String { engine.id }
    /// The engine's name.
    public var engineName: String { engine.engineName }
    /// The engine's version.
    public var engineVersion: String { engine.engineVersion }
    /// What the engine opens.
    public var contentTypes: Set<ContentType> { engine.contentTypes }
    /// What the engine can do, but reading an application's file system.
    public var capabilities: Set<Capability> { served(engine.capabilities) }
    /// The annotations the engine reads and writes.
    public var annotationSupport: AnnotationSupport { engine.annotationSupport }
    public var isChosenByAuto: Bool { engine.isChosenByAuto }

    /// What the engine can do with `contentType`, as ``capabilities`` says.
    public func capabilities(for contentType: ContentType) -> Set<Capability> {
        served(engine.capabilitiesByType[contentType.rawValue] ?? engine.capabilities)
    }

    private func served(_ capabilities: Set<Capability>) -> Set<Capability> {
        capabilities.subtracting([.openStream])
    }

    /// Starts an engine process and opens the document there with the engine's renderer. The
    /// password and the bytes of a document in memory reach it through its socket, never its
    /// arguments.
    public func openDocument(_ source: DocumentSource, password: String?, limits: DocumentLimits) throws -> any EngineDocument {
        let crossing: IsolationRequest.Source
        switch source {
        case .file(let path): crossing = .file(path)
        case .memory(let data): crossing = .memory(data)
        case .stream:
            throw RendererError(.unsupported, "an isolated engine cannot read from an application's file system: open a file or memory", rendererID: id)
        }
        let opening = IsolationRequest.Opening(
            rendererID: engine.id, source: crossing, password: password, cacheBytes: limits.cacheBytes, memoryBytes: isolation.memoryBytes)
        return try IsolatedEngineDocument(connection: EngineConnection(opening: opening, options: isolation, displayName: source.displayName))
    }
}

/// Pictures made into a PDF in an engine process of their own, within the isolation's time
/// limit and memory cap: strangers' pictures cannot cost the caller.
extension IsolatedRenderer: PictureWriting {
    /// Whether the engine writes PDFs of pictures.
    public var writesPictures: Bool { engine.writesPictures }

    /// Sends the pictures to a new engine process, which writes the PDF to `path` and ends.
    public func writePDF(fromPictures pictures: [Data], layout: ImagePageLayout, to path: String) throws -> Int {
        guard writesPictures else { throw RendererError(.unsupported, "\(engineName) does not write PDFs from pictures", rendererID: id) }
        let request = IsolationRequest.Pictures(
            rendererID: engine.id, pictures: pictures, layout: layout, path: path, memoryBytes: isolation.memoryBytes)
        return try EngineConnection(opening: nil, options: isolation, displayName: "the pictures").writePictures(request)
    }
}
