#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An open document inside an engine.
///
/// ### Implementation requirements
/// - It is used by one thread at a time (`Document` serialises access) but may move
///   between threads; it holds every engine resource it needs and frees them in `deinit`.
/// - ``pageCount`` changes only through the page-editing calls.
/// - ``loadPage(at:)`` is only called with `0 <= index < pageCount`.
/// - A document opened from a ``DocumentSource/stream(_:)`` source opens a reader of its own
///   and reads through it only; nothing of the document is written anywhere else.
/// - ``write(to:incremental:)`` writes the whole document with its changes to a new file at
///   `path` (never the file the document was opened from). Incremental output starts with
///   the original bytes. The document stays open and usable; encryption is kept.
public protocol EngineDocument: AnyObject {
    /// The number of pages; only the page-editing and layout calls change it.
    var pageCount: Int { get }
    /// What the document is: a PDF, or another format the engine reads.
    var contentType: ContentType { get }
    /// The document's version, metadata, encryption and permissions.
    func info() throws -> DocumentInfo
    /// The document's outline. Destinations are in page space; named destinations resolved.
    /// The walk cuts a cycle where it closes and stops at ``OutlineItem/maximumDepth``,
    /// keeping what it read before; it never hangs.
    func outline() throws -> [OutlineItem]
    /// Where the document's named destination `name` leads (from its `/Dests` dictionary or
    /// name tree), in page space; nil when it has no such name.
    func namedDestination(_ name: String) throws -> Destination?
    /// The tagged structure tree (`/StructTreeRoot`), its elements in the tree's order, with
    /// the content on `pages` (indices in range) only: an element that holds nothing of
    /// theirs is left out. Nil when the document has no structure tree or the engine does not
    /// read one. The walk stops at ``StructureElement/maximumDepth`` and
    /// ``StructureElement/maximumCount``, keeping what it read; it never hangs.
    func structureTree(pages: [Int]) throws -> [StructureElement]?
    /// The fonts the pages use, each font dictionary once, in the order the pages first use
    /// them (see ``FontInfo``).
    func fonts() throws -> [FontInfo]
    /// The images the pages draw, page after page, in the order drawn (``DocumentImage``):
    /// what `pdfimages -list` lists.
    func images() throws -> [DocumentImage]
    /// The images pages `pages` (indices in range) draw, as ``images()`` lists them for
    /// those pages alone (numbered from 0 in this list).
    func images(pages: [Int]) throws -> [DocumentImage]
    /// What pages `pages` (indices in range) draw with paths (``PageDrawing``), page after
    /// page: the rules layout analysis reads ruled tables from, and the shapes it finds
    /// drawn figures in.
    func drawing(pages: [Int]) throws -> PageDrawing
    /// The data of `image` (as ``images()`` lists it) for extraction: a JPEG or JPEG 2000
    /// file as stored, or its samples as 8-bit gray or RGB. Throws `unsupported` for a colour
    /// space it cannot make gray or RGB (Lab, DeviceN), `damaged` for data that cannot be read.
    func imageContents(_ image: DocumentImage) throws -> ImageContents
    /// The files the document embeds: the name tree's in the order of their keys, then
    /// file-attachment annotations' in page order (see ``Attachment``).
    func attachments() throws -> [Attachment]
    /// The bytes of attachment `index` of ``attachments()``, which the caller checked exists.
    func attachmentContents(at index: Int) throws -> Data
    /// Embeds a file of the document's own (``Capability/editAttachments``); the caller
    /// checked the name is new.
    func addAttachment(name: String, contents: Data, description: String?, modificationDate: Date?) throws
    /// Removes attachment `index`, one of the document's own, which the caller checked.
    func removeAttachment(at index: Int) throws
    /// The document's optional-content groups in `/OCProperties /OCGs` order, each with its
    /// state in the default configuration; empty when it has none.
    func optionalContentGroups() throws -> [OptionalContentGroup]
    /// The document's optional-content configurations: the default one first, then those of
    /// `/Configs` in order; empty when it has no groups.
    func optionalContentConfigurations() throws -> [OptionalContentConfiguration]
    /// Shows or hides each group of ``optionalContentGroups()`` as `states` says (one per
    /// group), for the pages drawn from now on, until the next call.
    func setOptionalContentStates(_ states: [Bool]) throws
    /// Loads one page; the page keeps the document alive.
    func loadPage(at index: Int) throws -> any EnginePage
    /// Every page's facts, in order, as each loaded page's `info()` gives them.
    func pageInfos() throws -> [PageInfo]
    /// True when the document can be saved as an incremental update (false, for example,
    /// for a file the engine had to repair).
    var canSaveIncrementally: Bool { get }
    /// Writes the document with its changes to a new file; see the requirements above.
    func write(to path: String, incremental: Bool) throws
    /// Writes what ``write(to:incremental:)`` writes into `handle`, from its start, without
    /// closing it: for saves into an application's `FileSystem`.
    func write(into handle: any FileWriteHandle, incremental: Bool) throws
    /// Writes the document with its changes to a new file, whole (never an update), with
    /// `protection`'s passwords, permissions and method, or unencrypted when it is nil
    /// (``Capability/protect``); the caller has validated `protection` and checked that
    /// the document was opened with every permission. An engine without an encrypting
    /// writer throws `unsupported`.
    func write(to path: String, protection: PasswordProtection?) throws
    /// The catalog's XMP packet (`/Metadata`), decoded; nil when there is none.
    func xmpPacket() throws -> Data?
    /// What the document does of itself: its open action, additional actions and
    /// JavaScript, as the file opened holds them with this document's changes.
    func documentActions() throws -> DocumentActions
    /// Writes `metadata` into the Info dictionary (a nil field removes its entry; other
    /// entries stay) and, when `xmpPacket` is given, makes it the catalog's XMP packet.
    func setMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws
    /// The AcroForm's signature fields in field-tree order, as the file opened holds them.
    func signatureFields() throws -> [SignatureField]
    /// The AcroForm's terminal fields in field-tree order, with this document's changes.
    func formFields() throws -> [FormField]
    /// What the document says of XFA, which ``FormKind/init(hasFields:xfa:)`` reads.
    func xfaFacts() throws -> XFAFacts
    /// Sets `field` (as ``formFields()`` lists it) to `values`, which `Document` has
    /// checked against it: a text field's text, a button's state (none: `Off`), a choice
    /// field's chosen export values (none: nothing chosen). The field's widgets show the new
    /// value when drawn, by this engine and in the saved file.
    func setFormField(_ field: FormField, values: [String]) throws
    /// Draws every page's visible widgets into the page's content, then removes the widgets
    /// and the form.
    func flattenForm() throws
    /// Inserts an empty page of `size` points before page `index` (``pageCount``: at the end).
    func insertBlankPage(at index: Int, size: PageSize) throws
    /// Deletes the pages at `indices` (distinct, ascending, in range, not all of them), then drops the
    /// links, outline items, named destinations and form fields that pointed to them.
    func deletePages(_ indices: [Int]) throws -> PageEditReport
    /// Moves page `from` so that it becomes page `to`; destinations follow it.
    func movePage(from: Int, to: Int) throws
    /// Sets the page's `/Rotate`.
    func rotatePage(at index: Int, to rotation: PageRotation) throws
    /// Writes each page's words (`layers`, by page index in range) over it as invisible
    /// text, placed on the words' boxes, the page's own content untouched.
    func addTextLayers(_ layers: [Int: TextPage]) throws
    /// Lays each overlay (its page in range) onto its page as a form XObject of its own,
    /// over or behind the page's content or as a watermark annotation, with the fonts
    /// embedded once for every page.
    func addPageOverlays(_ overlays: PageOverlays) throws
    /// Copies the pages `pages` of the PDF in `data` (opened with `password`) before page
    /// `index`, with their annotations and the outline items that go to them, re-pointed at
    /// the copies; links and items into pages not copied are dropped.
    func insertPages(from data: Data, password: String?, pages: [Int], at index: Int) throws -> PageEditReport
    /// Replaces the outline with `items` (their destinations on pages of the document, no
    /// deeper than ``OutlineItem/maximumDepth``); none removes it.
    func replaceOutline(with items: [OutlineItem]) throws -> OutlineEditReport
    /// Adds a link on page `index` (in range) over `link`'s area to its destination.
    func addLink(_ link: Link, pageAt index: Int) throws
    /// Removes the links of page `index` (in range) whose area is `area`, within half a
    /// point, and returns how many there were.
    func removeLinks(in area: PageRect, pageAt index: Int) throws -> Int
    /// Lays `request`'s signature into `file` (the bytes the document was opened from, which
    /// it holds unchanged) as an incremental update, leaving the signature value as zeros.
    /// The document itself is not changed.
    func prepareSignatureUpdate(_ request: SignatureUpdateRequest, of file: Data) throws -> PreparedSignatureUpdate
    /// `file` (the bytes the document was opened from, unchanged) with an incremental update
    /// that adds `data` to the document security store (`/DSS`), made when there is none.
    /// The document itself is not changed.
    func prepareValidationDataUpdate(_ data: ValidationData, of file: Data) throws -> Data
    /// What the document security store (`/DSS`) holds: its certificates, CRLs and OCSP
    /// responses as written; empty when there is no store.
    func validationData() throws -> ValidationData
    /// Lays a document whose content type is reflowable (``ContentType/isReflowable``) out again on pages of `pageSize` points with text of
    /// `fontSize` points; the page count changes.
    func layout(pageSize: PageSize, fontSize: Double) throws
}

extension EngineDocument {
    /// PDF: an engine that reads other formats says which.
    public var contentType: ContentType { .pdf }

    /// Throws `unsupported`: an engine that declares ``Capability/metadata`` implements it.
    public func info() throws -> DocumentInfo {
        throw RendererError(.unsupported, "this engine does not read metadata")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/outline`` implements it.
    public func outline() throws -> [OutlineItem] {
        throw RendererError(.unsupported, "this engine does not read outlines")
    }

    /// Nil: an engine that reads structure trees implements it.
    public func structureTree(pages: [Int]) throws -> [StructureElement]? { nil }

    /// False: an engine that declares ``Capability/save`` says when it can.
    public var canSaveIncrementally: Bool { false }

    /// Throws `unsupported`: an engine that declares ``Capability/save`` implements it.
    public func write(to path: String, incremental: Bool) throws {
        throw RendererError(.unsupported, "this engine does not save documents")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/save`` implements it.
    public func write(into handle: any FileWriteHandle, incremental: Bool) throws {
        throw RendererError(.unsupported, "this engine does not save documents")
    }

    /// Loads each page in turn and asks it; an engine that reaches its pages another way
    /// (another process) answers at once.
    public func pageInfos() throws -> [PageInfo] {
        try (0..<pageCount).map { try loadPage(at: $0).info() }
    }

    /// Throws `unsupported`: an engine that declares ``Capability/reflow`` implements it.
    public func layout(pageSize: PageSize, fontSize: Double) throws {
        throw RendererError(.unsupported, "this engine does not lay documents out")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editOutline`` implements it.
    public func replaceOutline(with items: [OutlineItem]) throws -> OutlineEditReport {
        throw RendererError(.unsupported, "this engine does not edit outlines")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editLinks`` implements it.
    public func addLink(_ link: Link, pageAt index: Int) throws {
        throw RendererError(.unsupported, "this engine does not edit links")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editLinks`` implements it.
    public func removeLinks(in area: PageRect, pageAt index: Int) throws -> Int {
        throw RendererError(.unsupported, "this engine does not edit links")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/sign`` implements it.
    public func prepareSignatureUpdate(_ request: SignatureUpdateRequest, of file: Data) throws -> PreparedSignatureUpdate {
        throw RendererError(.unsupported, "this engine does not sign documents")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/sign`` implements it.
    public func prepareValidationDataUpdate(_ data: ValidationData, of file: Data) throws -> Data {
        throw RendererError(.unsupported, "this engine does not add validation data")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/sign`` implements it.
    public func validationData() throws -> ValidationData {
        throw RendererError(.unsupported, "this engine does not read the document security store")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editMetadata`` implements it.
    public func xmpPacket() throws -> Data? {
        throw RendererError(.unsupported, "this engine does not read XMP packets")
    }

    /// Nil: a format without named destinations.
    public func namedDestination(_ name: String) throws -> Destination? { nil }

    /// Throws `unsupported`: an engine that declares ``Capability/attachments`` implements it.
    public func attachments() throws -> [Attachment] {
        throw RendererError(.unsupported, "this engine does not read attachments")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/attachments`` implements it.
    public func attachmentContents(at index: Int) throws -> Data {
        throw RendererError(.unsupported, "this engine does not read attachments")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editAttachments`` implements it.
    public func addAttachment(name: String, contents: Data, description: String?, modificationDate: Date?) throws {
        throw RendererError(.unsupported, "this engine does not embed files")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editAttachments`` implements it.
    public func removeAttachment(at index: Int) throws {
        throw RendererError(.unsupported, "this engine does not remove embedded files")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/optionalContent`` implements it.
    public func optionalContentGroups() throws -> [OptionalContentGroup] {
        throw RendererError(.unsupported, "this engine does not read optional content")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/optionalContent`` implements it.
    public func optionalContentConfigurations() throws -> [OptionalContentConfiguration] {
        throw RendererError(.unsupported, "this engine does not read optional content")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/optionalContent`` implements it.
    public func setOptionalContentStates(_ states: [Bool]) throws {
        throw RendererError(.unsupported, "this engine does not show or hide optional content")
    }

    /// Throws `unsupported`: an engine that can list a document's fonts implements it.
    public func fonts() throws -> [FontInfo] {
        throw RendererError(.unsupported, "this engine does not list a document's fonts")
    }

    /// Nothing: an engine that reads what pages draw implements it.
    public func drawing(pages: [Int]) throws -> PageDrawing { PageDrawing() }

    /// Throws `unsupported`: an engine that can list a document's images implements it.
    public func images() throws -> [DocumentImage] {
        throw RendererError(.unsupported, "this engine does not list a document's images")
    }

    /// ``images()``'s of those pages, renumbered: an engine that reads pages apart does so.
    public func images(pages: [Int]) throws -> [DocumentImage] {
        let wanted = Set(pages)
        return try images().filter { wanted.contains($0.pageIndex) }.enumerated().map { number, image in
            var image = image
            image.number = number
            return image
        }
    }

    /// Throws `unsupported`: an engine that can list a document's images implements it.
    public func imageContents(_ image: DocumentImage) throws -> ImageContents {
        throw RendererError(.unsupported, "this engine does not extract a document's images")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editMetadata`` implements it.
    public func setMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws {
        throw RendererError(.unsupported, "this engine does not write metadata")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/signatures`` implements it.
    public func signatureFields() throws -> [SignatureField] {
        throw RendererError(.unsupported, "this engine does not list signatures")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/forms`` implements it.
    public func formFields() throws -> [FormField] {
        throw RendererError(.unsupported, "this engine does not list form fields")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/forms`` implements it.
    public func xfaFacts() throws -> XFAFacts {
        throw RendererError(.unsupported, "this engine does not read forms")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/fillForms`` implements it.
    public func setFormField(_ field: FormField, values: [String]) throws {
        throw RendererError(.unsupported, "this engine does not fill forms")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/flattenForms`` implements it.
    public func flattenForm() throws {
        throw RendererError(.unsupported, "this engine does not flatten forms")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editPages`` implements it.
    public func addTextLayers(_ layers: [Int: TextPage]) throws {
        throw RendererError(.unsupported, "this engine does not edit pages")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editPages`` implements it.
    public func addPageOverlays(_ overlays: PageOverlays) throws {
        throw RendererError(.unsupported, "this engine does not edit pages")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editPages`` implements it.
    public func insertBlankPage(at index: Int, size: PageSize) throws {
        throw RendererError(.unsupported, "this engine does not edit pages")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editPages`` implements it.
    public func deletePages(_ indices: [Int]) throws -> PageEditReport {
        throw RendererError(.unsupported, "this engine does not edit pages")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editPages`` implements it.
    public func movePage(from: Int, to: Int) throws {
        throw RendererError(.unsupported, "this engine does not edit pages")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editPages`` implements it.
    public func rotatePage(at index: Int, to rotation: PageRotation) throws {
        throw RendererError(.unsupported, "this engine does not edit pages")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editPages`` implements it.
    public func insertPages(from data: Data, password: String?, pages: [Int], at index: Int) throws -> PageEditReport {
        throw RendererError(.unsupported, "this engine does not edit pages")
    }
}
