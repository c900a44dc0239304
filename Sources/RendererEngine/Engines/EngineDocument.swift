/// An open document inside an engine.
///
/// ### Implementation requirements
/// - It is used by one thread at a time (`Document` serialises access) but may move
///   between threads; it holds every engine resource it needs and frees them in `deinit`.
/// - ``pageCount`` changes only through the page-editing calls (``PageEditing``,
///   ``PageMerging``, ``Reflowing``).
/// - ``loadPage(at:)`` is only called with `0 <= index < pageCount`.
/// - A document opened from a ``DocumentSource/stream(_:)`` source opens a reader of its own
///   and reads through it only; nothing of the document is written anywhere else.
///
/// What else a document does, it does by conforming to a capability protocol
/// (``MetadataReading``, ``OutlineReading``, ``DocumentSaving``, ``PageEditing``...), each
/// without default answers: ``Capability/isServed(by:page:)`` says which one each
/// capability needs, and a document that declares a capability without conforming fails
/// the conformance suites.
public protocol EngineDocument: AnyObject {
    /// The number of pages; only the page-editing and layout calls change it.
    var pageCount: Int { get }
    /// What the document is: a PDF, or another format the engine reads.
    var contentType: ContentType { get }
    /// Loads one page; the page keeps the document alive.
    func loadPage(at index: Int) throws -> any EnginePage
    /// Every page's facts, in order, as each loaded page's `info()` gives them.
    func pageInfos() throws -> [PageInfo]
}

extension EngineDocument {
    /// PDF: an engine that reads other formats says which.
    public var contentType: ContentType { .pdf }

    /// Loads each page in turn and asks it; an engine that reaches its pages another way
    /// (another process) answers at once.
    public func pageInfos() throws -> [PageInfo] {
        try (0..<pageCount).map { try loadPage(at: $0).info() }
    }
}
