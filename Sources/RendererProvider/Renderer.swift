import Foundation

/// A PDF engine behind the provider API. Applications do not call it directly: they open a
/// ``Document`` through a ``RendererRegistry``, which adds everything that must behave the
/// same on every engine (locking, page range checks, validation, capability checks).
///
/// ### Implementation requirements
/// - A renderer is a small immutable value, safe to share between threads.
/// - ``id`` is a short lower-case name (`mupdf`, `poppler`) that never changes.
/// - ``capabilities`` lists exactly what the renderer does; every operation it lacks throws
///   ``RendererError/Code-swift.enum/unsupported`` and never returns an empty result instead.
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
    /// Which annotation kinds it creates and which fields it reads and writes;
    /// ``AnnotationSupport/none`` without the `annotations` capability.
    var annotationSupport: AnnotationSupport { get }

    /// Opens a document whose caches stay within `limits`. The result is confined: it is
    /// used by one thread at a time.
    func openDocument(_ source: DocumentSource, password: String?, limits: DocumentLimits) throws -> any EngineDocument

    /// Encodes a bitmap as PNG with the engine's own encoder.
    func pngData(for bitmap: Bitmap) throws -> Data

    /// Writes the PNG that ``pngData(for:)`` makes to the file at `path`, replacing it.
    /// The default writes ``pngData(for:)``'s bytes; engines that can encode straight to
    /// a file do so instead of holding the whole PNG in memory.
    func writePNG(_ bitmap: Bitmap, to path: String) throws
}

extension Renderer {
    public func writePNG(_ bitmap: Bitmap, to path: String) throws {
        let file = try FileOutput(path: path)
        try pngData(for: bitmap).withUnsafeBytes { try file.write($0) }
        try file.close()
    }
}

/// An open document inside an engine.
///
/// ### Implementation requirements
/// - It is used by one thread at a time (``Document`` serialises access) but may move
///   between threads; it holds every engine resource it needs and frees them in `deinit`.
/// - ``pageCount`` does not change while the document is open.
/// - ``loadPage(at:)`` is only called with `0 <= index < pageCount`.
/// - ``write(to:incremental:)`` writes the whole document with its changes to a new file at
///   `path` (never the file the document was opened from). Incremental output starts with
///   the original bytes. The document stays open and usable; encryption is kept.
public protocol EngineDocument: AnyObject {
    var pageCount: Int { get }
    /// The document's version, metadata, encryption and permissions.
    func info() throws -> DocumentInfo
    /// The document's outline. Destinations are in page space; named destinations resolved.
    /// The walk cuts a cycle where it closes and stops at ``OutlineItem/maximumDepth``,
    /// keeping what it read before; it never hangs.
    func outline() throws -> [OutlineItem]
    /// Loads one page; the page keeps the document alive.
    func loadPage(at index: Int) throws -> any EnginePage
    /// True when the document can be saved as an incremental update (false, for example,
    /// for a file the engine had to repair).
    var canSaveIncrementally: Bool { get }
    /// Writes the document with its changes to a new file; see the requirements above.
    func write(to path: String, incremental: Bool) throws
}

/// A loaded page inside an engine, confined like its document.
///
/// ### Implementation requirements
/// - ``info()`` reports the size as displayed (crop box, rotation applied) in points.
/// - ``plainText()`` is the page's text in reading order as the engine's own text tool
///   writes it (`mutool draw -F txt`, `pdftotext`), up to whitespace.
/// - ``textPage()`` gives every character in reading order, grouped in the engine's lines
///   and blocks, each with a quad in page space tight to its glyphs: from the font's
///   ascender to its descender, not the font's whole height.
/// - ``links()`` gives the page's link areas in page space with resolved destinations;
///   links that lead nowhere resolvable are left out.
/// - ``annotations()`` lists the page's annotations in the order of its `/Annots` array,
///   leaving out links and popups, each identified as ``Annotation/id`` says (the
///   positional keys come from ``AnnotationIdentity``), geometry in page space.
/// - ``addAnnotation(_:)`` is only called with a kind and fields the renderer's
///   ``AnnotationSupport`` declares; the annotation's `id` is a new unique name, written as
///   `/NM` where the engine can. It stores an appearance or a form every viewer draws, and
///   returns the annotation as read back. ``updateAnnotation(_:)`` changes the annotation
///   with the same `id` to the given fields; both throw `invalidArgument` when the engine
///   refuses a value. ``removeAnnotation(id:)`` removes it with its popup. Identities of the
///   page's other annotations do not change while the document is open.
/// - ``render(_:options:into:cancellation:)`` draws the page at `options.scale` pixels per
///   point into `pixels`: exactly `area.height` rows of `area.width` pixels of
///   `options.pixelFormat`, without padding, where `area` is in device pixels with the
///   displayed page's top-left corner at (0, 0). It sets every byte, first filling the area
///   with `options.background` (RGBA output keeps its alpha; straight alpha out), and
///   allocates no second bitmap of the area's size where the engine can draw in place. The caller has already checked `area` against the page and the
///   limits. It throws `cancelled` if `cancellation` is cancelled before it starts, or
///   while it draws where the engine can stop there.
public protocol EnginePage: AnyObject {
    func info() throws -> PageInfo
    func plainText() throws -> String
    func textPage() throws -> TextPage
    func links() throws -> [Link]
    func render(_ area: PixelRect, options: RenderOptions, into pixels: UnsafeMutableBufferPointer<UInt8>, cancellation: Cancellation?) throws
    /// How the page's user space maps onto page space.
    func pageSpace() throws -> PageSpace
    func annotations() throws -> [Annotation]
    func addAnnotation(_ annotation: Annotation) throws -> Annotation
    func updateAnnotation(_ annotation: Annotation) throws -> Annotation
    func removeAnnotation(id: String) throws
}
