#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// What an engine document does beyond opening, page count and pages: one protocol per
// capability, with no default answers. An engine conforms to what it does; the provider API
// reaches each through `EngineDocument.capability(_:)`, which throws `unsupported` for a
// document that does not conform. `Capability.isServed(by:page:)` says which protocol each
// capability needs.

/// Reads the document's facts (``Capability/metadata``).
public protocol MetadataReading: EngineDocument {
    /// The document's version, metadata, encryption and permissions.
    func info() throws -> DocumentInfo
    /// The catalog's XMP packet (`/Metadata`), decoded; nil when there is none.
    func xmpPacket() throws -> Data?
    /// What the document does of itself: its open action, additional actions and
    /// JavaScript, as the file opened holds them with this document's changes.
    func documentActions() throws -> DocumentActions
}

/// Writes the document's metadata (``Capability/editMetadata``).
public protocol MetadataWriting: MetadataReading {
    /// Writes `metadata` into the Info dictionary (a nil field removes its entry; other
    /// entries stay) and, when `xmpPacket` is given, makes it the catalog's XMP packet.
    func setMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws
}

/// Reads the outline and named destinations (``Capability/outline``).
public protocol OutlineReading: EngineDocument {
    /// The document's outline. Destinations are in page space; named destinations resolved.
    /// The walk cuts a cycle where it closes and stops at ``OutlineItem/maximumDepth``,
    /// keeping what it read before; it never hangs.
    func outline() throws -> [OutlineItem]
    /// Where the document's named destination `name` leads (from its `/Dests` dictionary or
    /// name tree), in page space; nil when it has no such name.
    func namedDestination(_ name: String) throws -> Destination?
}

/// Writes the outline (``Capability/editOutline``).
public protocol OutlineWriting: OutlineReading {
    /// Replaces the outline with `items` (their destinations on pages of the document, no
    /// deeper than ``OutlineItem/maximumDepth``); none removes it.
    func replaceOutline(with items: [OutlineItem]) throws -> OutlineEditReport
}

/// Adds and removes links (``Capability/editLinks``).
public protocol LinkWriting: EngineDocument {
    /// Adds a link on page `index` (in range) over `link`'s area to its destination.
    func addLink(_ link: Link, pageAt index: Int) throws
    /// Removes the links of page `index` (in range) whose area is `area`, within half a
    /// point, and returns how many there were.
    func removeLinks(in area: PageRect, pageAt index: Int) throws -> Int
}

/// Reads a tagged PDF's structure tree (``Capability/structureTree``).
public protocol StructureReading: EngineDocument {
    /// The tagged structure tree (`/StructTreeRoot`), its elements in the tree's order, with
    /// the content on `pages` (indices in range) only: an element that holds nothing of
    /// theirs is left out. Nil when the document has no structure tree. The walk stops at
    /// ``StructureElement/maximumDepth`` and ``StructureElement/maximumCount``, keeping
    /// what it read; it never hangs.
    func structureTree(pages: [Int]) throws -> [StructureElement]?
}

/// Lists what the pages use and draw: fonts, images and paths. No ``Capability`` names it;
/// a document that does not conform lists none.
public protocol ContentReading: EngineDocument {
    /// The fonts the pages use, each font dictionary once, in the order the pages first use
    /// them (see ``FontInfo``).
    func fonts() throws -> [FontInfo]
    /// The images the pages draw, page after page, in the order drawn (``DocumentImage``):
    /// what `pdfimages -list` lists.
    func images() throws -> [DocumentImage]
    /// The images pages `pages` (indices in range) draw, as ``images()`` lists them for
    /// those pages alone (numbered from 0 in this list).
    func images(pages: [Int]) throws -> [DocumentImage]
    /// The data of `image` (as ``images()`` lists it) for extraction: a JPEG or JPEG 2000
    /// file as stored, or its samples as 8-bit gray or RGB. Throws `unsupported` for a colour
    /// space it cannot make gray or RGB (Lab, DeviceN), `damaged` for data that cannot be read.
    func imageContents(_ image: DocumentImage) throws -> ImageContents
    /// What pages `pages` (indices in range) draw with paths (``PageDrawing``), page after
    /// page: the rules layout analysis reads ruled tables from, and the shapes it finds
    /// drawn figures in.
    func drawing(pages: [Int]) throws -> PageDrawing
}

/// Lists the files the document embeds (``Capability/attachments``).
public protocol AttachmentReading: EngineDocument {
    /// The files the document embeds: the name tree's in the order of their keys, then
    /// file-attachment annotations' in page order (see ``Attachment``).
    func attachments() throws -> [Attachment]
    /// The bytes of attachment `index` of ``attachments()``, which the caller checked exists.
    func attachmentContents(at index: Int) throws -> Data
}

/// Embeds files and removes them (``Capability/editAttachments``).
public protocol AttachmentWriting: AttachmentReading {
    /// Embeds a file of the document's own; the caller checked the name is new.
    func addAttachment(name: String, contents: Data, description: String?, modificationDate: Date?) throws
    /// Removes attachment `index`, one of the document's own, which the caller checked.
    func removeAttachment(at index: Int) throws
}

/// Lists optional content and chooses what is shown (``Capability/optionalContent``).
public protocol OptionalContentControl: EngineDocument {
    /// The document's optional-content groups in `/OCProperties /OCGs` order, each with its
    /// state in the default configuration; empty when it has none.
    func optionalContentGroups() throws -> [OptionalContentGroup]
    /// The document's optional-content configurations: the default one first, then those of
    /// `/Configs` in order; empty when it has no groups.
    func optionalContentConfigurations() throws -> [OptionalContentConfiguration]
    /// Shows or hides each group of ``optionalContentGroups()`` as `states` says (one per
    /// group), for the pages drawn from now on, until the next call.
    func setOptionalContentStates(_ states: [Bool]) throws
}

/// Saves the document with its changes (``Capability/save``).
///
/// ``write(to:incremental:)`` writes the whole document with its changes to a new file at
/// `path` (never the file the document was opened from). Incremental output starts with the
/// original bytes. The document stays open and usable; encryption is kept.
public protocol DocumentSaving: EngineDocument {
    /// True when the document can be saved as an incremental update (false, for example,
    /// for a file the engine had to repair).
    var canSaveIncrementally: Bool { get }
    /// Writes the document with its changes to a new file; see the requirements above.
    func write(to path: String, incremental: Bool) throws
    /// Writes what ``write(to:incremental:)`` writes into `handle`, from its start, without
    /// closing it: for saves into an application's `FileSystem`.
    func write(into handle: any FileWriteHandle, incremental: Bool) throws
}

/// Saves a whole new file with new password protection, or none (``Capability/protect``).
public protocol ProtectedSaving: DocumentSaving {
    /// Writes the document with its changes to a new file, whole (never an update), with
    /// `protection`'s passwords, permissions and method, or unencrypted when it is nil; the
    /// caller has validated `protection` and checked that the document was opened with
    /// every permission.
    func write(to path: String, protection: PasswordProtection?) throws
}

/// Lists signature fields (``Capability/signatures``).
public protocol SignatureReading: EngineDocument {
    /// The AcroForm's signature fields in field-tree order, as the file opened holds them.
    func signatureFields() throws -> [SignatureField]
}

/// Lays signatures and validation data into the file as updates (``Capability/sign``); an
/// update follows the saved file, so a signing document saves too.
public protocol DocumentSigning: DocumentSaving {
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
}

/// Lists the interactive form (``Capability/forms``).
public protocol FormReading: EngineDocument {
    /// The AcroForm's terminal fields in field-tree order, with this document's changes.
    func formFields() throws -> [FormField]
    /// What the document says of XFA, which ``FormKind/init(hasFields:xfa:)`` reads.
    func xfaFacts() throws -> XFAFacts
}

/// Fills the form (``Capability/fillForms``).
public protocol FormFilling: FormReading {
    /// Sets `field` (as ``FormReading/formFields()`` lists it) to `values`, which `Document`
    /// has checked against it: a text field's text, a button's state (none: `Off`), a
    /// choice field's chosen export values (none: nothing chosen). The field's widgets show
    /// the new value when drawn, by this engine and in the saved file.
    func setFormField(_ field: FormField, values: [String]) throws
}

/// Flattens the form (``Capability/flattenForms``).
public protocol FormFlattening: FormReading {
    /// Draws every page's visible widgets into the page's content, then removes the widgets
    /// and the form.
    func flattenForm() throws
}

/// Edits the pages (``Capability/editPages``). Only these calls, ``PageMerging`` and
/// ``Reflowing`` change ``EngineDocument/pageCount``.
public protocol PageEditing: EngineDocument {
    /// Inserts an empty page of `size` points before page `index` (``EngineDocument/pageCount``:
    /// at the end).
    func insertBlankPage(at index: Int, size: PageSize) throws
    /// Deletes the pages at `indices` (distinct, ascending, in range, not all of them), then
    /// drops the links, outline items, named destinations and form fields that pointed to them.
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
}

/// Copies pages from another PDF into the document (``Capability/mergePages``).
public protocol PageMerging: EngineDocument {
    /// Copies the pages `pages` of the PDF in `data` (opened with `password`) before page
    /// `index`, with their annotations and the outline items that go to them, re-pointed at
    /// the copies; links and items into pages not copied are dropped.
    func insertPages(from data: Data, password: String?, pages: [Int], at index: Int) throws -> PageEditReport
}

/// Lays a reflowable document out again (``Capability/reflow``).
public protocol Reflowing: EngineDocument {
    /// Lays a document whose content type is reflowable (``ContentType/isReflowable``) out
    /// again on pages of `pageSize` points with text of `fontSize` points; the page count
    /// changes.
    func layout(pageSize: PageSize, fontSize: Double) throws
}
