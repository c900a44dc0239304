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
    var engineVersion: String { get }
    /// The number of pages; valid page indices are `0..<pageCount`.
    var pageCount: Int { get }

    func info() throws -> DocumentInfo
    func pageInfos() throws -> [PageInfo]
    func render(pageAt index: Int, options: RenderOptions, cancellation: Cancellation?) throws -> Bitmap
    @discardableResult
    func render(pageAt index: Int, options: RenderOptions, as format: ImageFileFormat, to path: String, cancellation: Cancellation?) throws
        -> (width: Int, height: Int)
    func text(pageAt index: Int) throws -> String
    func textPage(pageAt index: Int) throws -> TextPage
}

extension Document: DocumentReading {
    public var rendererID: String { renderer.id }
    public var engineName: String { renderer.engineName }
    public var engineVersion: String { renderer.engineVersion }
}
