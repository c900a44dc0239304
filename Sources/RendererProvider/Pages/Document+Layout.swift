/// Laying out reflowable documents (EPUB, FictionBook): their pages are made by the engine,
/// for a page size and a font size the reader chooses.
extension Document {
    /// The page size reflowable documents are laid out on until told otherwise
    /// (`ReflowLayout.defaultPageSize`, 450 × 600 points).
    public static let defaultLayoutPageSize = ReflowLayout.defaultPageSize
    /// The text size they are laid out with until told otherwise, in points.
    public static let defaultLayoutFontSize = ReflowLayout.defaultFontSize

    /// Whether the engine lays the pages out, so that ``layout(pageSize:fontSize:)`` applies.
    public var isReflowable: Bool { contentType.isReflowable }

    /// Lays the document out again on pages of `pageSize` points with text of `fontSize`
    /// points: the page count changes, and page indices name new pages. Needs
    /// `Capability.reflow` and a reflowable document (`unsupported` otherwise); a page
    /// side outside 72…14400 points or a font size outside 4…144 points is `invalidArgument`.
    public func layout(pageSize: PageSize, fontSize: Double = Document.defaultLayoutFontSize) throws {
        try require(.reflow)
        guard isReflowable else {
            throw RendererError(.unsupported, "the document's pages are fixed; only EPUB and FictionBook books are laid out", rendererID: renderer.id)
        }
        let sides = 72.0...Document.maximumPageSide
        guard sides.contains(pageSize.width), sides.contains(pageSize.height), (4.0...144).contains(fontSize) else {
            throw RendererError(
                .invalidArgument, "a layout takes pages of 72 to 14400 points a side and text of 4 to 144 points, not \(pageSize.width) × \(pageSize.height) at \(fontSize)",
                rendererID: renderer.id)
        }
        try withEngine(as: Reflowing.self, needing: nil) { document, _ in try document.layout(pageSize: pageSize, fontSize: fontSize) }
    }
}
