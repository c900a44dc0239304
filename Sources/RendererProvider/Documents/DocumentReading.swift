/// What reading a document takes, wherever its engine runs: ``Document`` (in this process)
/// and `RendererIsolation`'s `IsolatedDocument` (in a child process) both offer it, so code
/// that reads (renders, extracts text, reports facts) is written once for both.
///
/// ### Implementation requirements
/// Each method behaves as ``Document``'s of the same name documents, errors included; an
/// isolated document may also throw `engineCrashed` and `limitExceeded` for its process.
public protocol DocumentReading: Sendable {
    /// The id of the renderer serving the document (`mupdf`, `poppler`).
    var rendererID: String { get }
    /// The engine's name and version, as its renderer reports them.
    var engineName: String { get }
    /// The engine's version.
    var engineVersion: String { get }
    /// The number of pages; valid page indices are `0..<pageCount`.
    var pageCount: Int { get }

    /// The document's version, metadata, encryption and permissions.
    func info() throws -> DocumentInfo
    /// Size, rotation and label of every page, in order.
    func pageInfos() throws -> [PageInfo]
    /// Draws a page into a new bitmap.
    func render(pageAt index: Int, options: RenderOptions, cancellation: Cancellation?) throws -> Bitmap
    /// Draws a page and writes it as an image file; returns its size in pixels.
    @discardableResult
    func render(pageAt index: Int, options: RenderOptions, as format: ImageFileFormat, to path: String, cancellation: Cancellation?) throws
        -> (width: Int, height: Int)
    /// The page's text in reading order, as the engine's own text tool writes it.
    func text(pageAt index: Int) throws -> String
    /// The page's characters with their boxes, in lines and blocks.
    func textPage(pageAt index: Int) throws -> TextPage
    /// Size, rotation and label of one page.
    func pageInfo(at index: Int) throws -> PageInfo
    /// The page's links, in page space.
    func links(pageAt index: Int) throws -> [Link]
    /// The document's outline.
    func outline() throws -> [OutlineItem]
    /// The page's annotations.
    func annotations(onPageAt index: Int) throws -> [Annotation]
}

extension DocumentReading {
    /// Every place `term` occurs on the page, in reading order: the search every backend
    /// shares, over ``textPage(pageAt:)``, so it is the same wherever the engine runs.
    public func search(_ term: String, pageAt index: Int, options: SearchOptions = SearchOptions()) throws -> [SearchHit] {
        let search = try TextSearch(term: term, options: options)
        return search.hits(in: try textPage(pageAt: index), pageIndex: index)
    }
}

extension Document: DocumentReading {
    public var rendererID: String { renderer.id }
    public var engineName: String { renderer.engineName }
    /// The serving renderer's engine version.
    public var engineVersion: String { renderer.engineVersion }
}
