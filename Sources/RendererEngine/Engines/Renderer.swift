#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A PDF engine behind the provider API. Applications do not call it directly: they open a
/// `Document` through a `RendererRegistry`, which adds everything that must behave the
/// same on every engine (locking, page range checks, validation, capability checks).
///
/// ### Implementation requirements
/// - A renderer is a small immutable value, safe to share between threads.
/// - ``id`` is a short lower-case name (`mupdf`, `poppler`) that never changes.
/// - ``capabilities`` lists exactly what the renderer does; every operation it lacks throws
///   ``RendererError/Code-swift.struct/unsupported`` and never returns an empty result instead.
///   ``capabilities(for:)`` narrows that for a content type the renderer only reads, and
///   its documents of that type refuse the rest the same way.
/// - ``openDocument(_:password:limits:)`` is only called for sources whose content type is in
///   ``contentTypes``. It throws `passwordRequired` when the document is encrypted and no
///   password was given, `wrongPassword` when the given one is neither the user nor the owner
///   password, `damaged` when the engine cannot make a document of the bytes, and never
///   prints to stdout or stderr: engine messages go to a logger or into the error.
/// - Every error thrown is a ``RendererError`` whose `backend` is ``id``.
public protocol Renderer: Sendable {
    /// The stable short name of this renderer.
    var id: String { get }
    /// The engine's name for people, such as "MuPDF".
    var engineName: String { get }
    /// The version of the engine linked into the process.
    var engineVersion: String { get }
    /// The content types this renderer opens.
    var contentTypes: Set<ContentType> { get }
    /// What this renderer can do.
    var capabilities: Set<Capability> { get }
    /// What this renderer can do with documents of `contentType`: ``capabilities``, or
    /// fewer for formats it only reads.
    func capabilities(for contentType: ContentType) -> Set<Capability>
    /// Which annotation kinds it creates and which fields it reads and writes;
    /// ``AnnotationSupport/none`` without the `annotations` capability.
    var annotationSupport: AnnotationSupport { get }
    /// Whether `RendererSelection.auto` tries this renderer; one chosen by name only (a
    /// renderer for comparisons, say) says false. True unless the renderer says otherwise.
    var isChosenByAuto: Bool { get }

    /// Opens a document whose caches stay within `limits`. The result is confined: it is
    /// used by one thread at a time.
    func openDocument(_ source: DocumentSource, password: String?, limits: DocumentLimits) throws -> any EngineDocument
}

extension Renderer {
    /// ``capabilities``, for every content type.
    public func capabilities(for contentType: ContentType) -> Set<Capability> { capabilities }

    /// True: `auto` tries the renderer.
    public var isChosenByAuto: Bool { true }
}
