/// Something a renderer can do. The public API checks a renderer's capabilities before it
/// asks for an operation, and throws ``RendererError/Code-swift.struct/unsupported`` when one is missing.
public enum Capability: String, Sendable, Codable, CaseIterable, Comparable {
    /// Opens documents from a file path.
    case openFile = "open-file"
    /// Opens documents from bytes in memory.
    case openMemory = "open-memory"
    /// Opens documents read by position through a ``DocumentStream``.
    case openStream = "open-stream"
    /// Opens encrypted documents with a user or owner password.
    case passwords
    /// Reads the Info dictionary, version, encryption and permissions.
    case metadata
    /// Reads page labels (`/PageLabels`).
    case pageLabels = "page-labels"
    /// Draws pages and clip regions into RGB, RGBA and gray bitmaps.
    case render
    /// Extracts plain and structured text (and so searches).
    case text
    /// Reads the document outline.
    case outline
    /// Reads the links on pages.
    case links
    /// Writes the outline: its items' titles, destinations, colours, fonts and open state.
    case editOutline = "edit-outline"
    /// Adds link annotations to pages and removes them.
    case editLinks = "edit-links"
    /// Lists the annotations on pages.
    case annotations
    /// Adds, changes and removes annotations (which kinds and fields: ``AnnotationSupport``).
    case editAnnotations = "edit-annotations"
    /// Writes the document's metadata: the Info dictionary and the XMP packet.
    case editMetadata = "edit-metadata"
    /// Lists the interactive form's fields.
    case forms
    /// Fills the form: sets fields' values (checked against each field first) and resets
    /// them, giving their widgets new appearances.
    case fillForms = "fill-forms"
    /// Flattens the form: draws its widgets into the pages' content and removes the fields.
    case flattenForms = "flatten-forms"
    /// Edits the pages: inserts blank pages, deletes, moves and rotates pages, and extracts
    /// pages into a new PDF.
    case editPages = "edit-pages"
    /// Copies pages from another PDF into the document (merging), with their annotations
    /// and the outline items that go to them.
    case mergePages = "merge-pages"
    /// Lays reflowable documents (EPUB, FictionBook) out on pages of a chosen size, with text
    /// of a chosen size.
    case reflow
    /// Reads a tagged PDF's structure tree (``StructureReading/structureTree(pages:)``).
    case structureTree = "structure-tree"
    /// Lists signature fields and what their signature dictionaries say.
    case signatures
    /// Lays a signature into a document's file as an incremental update
    /// (``DocumentSigning/prepareSignatureUpdate(_:of:)``), for `RendererSignatures` to sign.
    case sign
    /// Lists the files a document embeds (``Attachment``) and reads their bytes.
    case attachments
    /// Embeds files in a document and removes them.
    case editAttachments = "edit-attachments"
    /// Lists the document's optional-content groups (``OptionalContentGroup``) and
    /// configurations, and draws pages with a chosen set of them shown
    /// (``RenderOptions/optionalContent``).
    case optionalContent = "optional-content"
    /// Adds stamps that show an image (`Document.addImageStamp(_:image:)`).
    case imageStamps = "image-stamps"
    /// Marks areas for redaction and applies the marks: the content under them is removed,
    /// not covered.
    case redact
    /// Saves the document, with its changes, to a file or into a ``FileWriteHandle``.
    case save
    /// Saves a whole new file with new password protection, or with none
    /// (``PasswordProtection``).
    case protect

    public static func < (lhs: Capability, rhs: Capability) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
