import Foundation
import Logging
import RendererEngine

/// One document as Poppler's two APIs open it, each twin owning its own handle: glib
/// (drawing, metadata, text with boxes, navigation) and the core API (encryption, `/Rotate`
/// and boxes, text as pdftotext writes it, annotations, forms, pages and saving). Everything
/// is edited in the core twin; the glib twin is then opened again from the core twin's bytes
/// before the next page is loaded or the metadata read, so that they show the changes. A page
/// edit opens the core twin itself again from its bytes, since Poppler's catalog reads the
/// page tree once.
final class PopplerDocument:
    MetadataWriting, OutlineWriting, LinkWriting, StructureReading, ContentReading, AttachmentReading, OptionalContentControl,
    DocumentSaving, SignatureReading, DocumentSigning, FormFilling, FormFlattening, PageEditing, PageMerging
{
    /// The glib twin; out of date after an edit, until `currentGlib()` opens it again.
    private var glibTwin: PopplerGlibDocument
    private(set) var pageCount: Int
    /// The core twin, which every edit changes; opened again after a page edit.
    private(set) var core: PopplerCoreDocument
    /// Whether Poppler rebuilt the cross-reference table of the file as opened, which then
    /// takes no incremental update.
    let wasReconstructed: Bool
    private let password: String?
    /// True when the core twin has changes the glib twin does not show yet.
    private var glibIsOutOfDate = false
    /// The memory pages are drawn in, kept from one page to the next.
    private var drawingMemory: [UInt8] = []
    /// Where the messages of Poppler's work on this document go (`PopplerLogSink`).
    let logger: Logger
    /// The document's layers with their default states, read from the core twin once: edits
    /// do not change them, and the states drawings choose are the glib twin's.
    var coreGroups: [OptionalContentGroup]?

    init(source: DocumentSource, password: String?, logger: Logger) throws {
        var absolutePath: String?
        if case .file(let path) = source { absolutePath = URL(fileURLWithPath: path).standardizedFileURL.path }
        let glib = try PopplerGlibDocument(source: source, absolutePath: absolutePath, password: password)
        guard let core = PopplerCoreDocument(source: source, absolutePath: absolutePath, password: password), core.pageCount == glib.pageCount else {
            throw PopplerErrors.coreUnavailable(source)
        }
        glibTwin = glib
        pageCount = glib.pageCount
        self.core = core
        wasReconstructed = core.wasReconstructed
        self.password = password
        self.logger = logger
    }

    /// The glib twin as it is, for what edits do not change (outline, destinations, the
    /// crop box, the file identifier).
    var glib: PopplerGlibDocument { glibTwin }

    /// The glib twin's facts, with the catalog's language read over the PDF objects.
    func info() throws -> DocumentInfo {
        var info = try currentGlib().info(pageCount: pageCount, isEncrypted: core.isEncrypted)
        info.language = try? core.catalogLanguage()
        return info
    }

    func loadPage(at index: Int) throws -> any EnginePage {
        PopplerPage(document: self, index: index, rotation: core.rotation(ofPage: index))
    }

    /// The glib page at `index`, from a glib twin that shows every change; the caller
    /// unreferences it.
    func currentPage(at index: Int) throws -> OpaquePointer {
        try currentGlib().page(at: index)
    }

    /// The glib twin, first opened again from the core twin's bytes when the core twin has
    /// changes it does not show.
    func currentGlib() throws -> PopplerGlibDocument {
        if glibIsOutOfDate {
            let bytes = try core.serialized()
            glibTwin = try logging { try PopplerGlibDocument(source: .memory(bytes), absolutePath: nil, password: password) }
            glibIsOutOfDate = false
        }
        return glibTwin
    }

    /// Runs Poppler work on this document with its messages going to `logger`.
    func logging<T>(_ body: () throws -> T) rethrows -> T {
        try PopplerLogSink.routing(to: logger, body)
    }

    /// Notes that the core twin changed, so the glib twin must be opened again.
    func coreChanged() {
        glibIsOutOfDate = true
    }

    /// Opens the core twin again from `bytes`, the document as the core twin wrote it, and
    /// the glib twin after it.
    func reopenCore(from bytes: Data) throws {
        guard let reopened = logging({ PopplerCoreDocument(source: .memory(bytes), absolutePath: nil, password: password) }) else {
            throw PopplerErrors.coreUnavailable(.memory(bytes))
        }
        core = reopened
        pageCount = reopened.pageCount
        coreChanged()
    }

    /// Calls `body` with at least `count` bytes of memory for drawing a page, reused from
    /// the previous page when it is large enough; `body` must not keep the pointer.
    func withDrawingMemory<T>(count: Int, _ body: (UnsafeMutablePointer<UInt8>) throws -> T) rethrows -> T {
        if drawingMemory.count < count {
            drawingMemory = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        }
        return try drawingMemory.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }
}
