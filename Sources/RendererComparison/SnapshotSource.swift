import RendererProvider

/// One side of a ``SnapshotComparison``: a stored ``DocumentSnapshot``, or a document read as
/// the comparison goes (``LiveSnapshotSource``), so that a long document's pages need not all
/// be held at once. A comparison reads a side from several threads at once.
public protocol SnapshotSource: Sendable {
    /// How the side was made.
    var provenance: DocumentSnapshot.Provenance { get }
    /// Its page count.
    var pageCount: Int { get }
    /// Page `index` drawn, or nil when the side has no images.
    func pageImage(_ index: Int) throws -> Bitmap?
    /// Page `index`'s text, or nil when the side has no text.
    func pageText(_ index: Int) throws -> String?
    /// The ``DocumentStructure`` as JSON text, or nil when the side has none.
    func structure() throws -> String?
}

/// A document read for a comparison page by page as it is asked: drawn at ``dpi`` with its
/// annotations, through the document's own renderer.
public struct LiveSnapshotSource: SnapshotSource {
    /// The document.
    public let document: Document
    /// The resolution its pages are drawn at.
    public let dpi: Double
    /// What the side gives.
    public let aspects: DocumentSnapshot.Aspects

    /// `document` drawn at `dpi`, giving `aspects`.
    public init(document: Document, dpi: Double = 72, aspects: DocumentSnapshot.Aspects = .all) {
        self.document = document
        self.dpi = dpi
        self.aspects = aspects
    }

    /// The document's renderer, ``dpi``, page count and ``aspects``.
    public var provenance: DocumentSnapshot.Provenance {
        DocumentSnapshot.Provenance(renderer: document.renderer, dpi: dpi, pageCount: document.pageCount, aspects: aspects)
    }
    /// The document's page count.
    public var pageCount: Int { document.pageCount }

    /// Page `index` drawn at ``dpi`` with its annotations, when ``aspects`` has pages.
    public func pageImage(_ index: Int) throws -> Bitmap? {
        guard aspects.contains(.pages) else { return nil }
        return try document.render(pageAt: index, options: RenderOptions(dpi: dpi))
    }

    /// Page `index`'s text, when ``aspects`` has text.
    public func pageText(_ index: Int) throws -> String? {
        guard aspects.contains(.text) else { return nil }
        return try document.text(pageAt: index)
    }

    /// The document's ``DocumentStructure`` as JSON, when ``aspects`` has the structure.
    public func structure() throws -> String? {
        guard aspects.contains(.structure) else { return nil }
        return try DocumentStructure(of: document).jsonText()
    }
}
