/// Reading the document through the session: page facts, drawing, exporting and text.
extension ReadingSession {
    /// The renderer serving the document.
    public var renderer: any Renderer {
        get throws { try withDocument { document, _ in document.renderer } }
    }

    /// How the page's user space maps onto page space (for XFDF and other PDF-space formats).
    public func pageSpace(pageAt index: Int) throws -> PageSpace {
        try withDocument { document, _ in try document.pageSpace(pageAt: index) }
    }

    /// The document's metadata, encryption and permissions.
    public func info() throws -> DocumentInfo {
        try withDocument { document, _ in try document.info() }
    }

    /// Size, rotation and label of the page at `index`.
    public func pageInfo(pageAt index: Int) throws -> PageInfo {
        try withDocument { document, _ in try document.pageInfo(pageAt: index) }
    }

    /// Draws the page for the screen. The page is drawn in dark mode when `options` asks for
    /// it or the session's dark mode is on; asking for it when the settings do not make it
    /// available throws `notPermitted`.
    public func render(pageAt index: Int, options: RenderOptions = RenderOptions(), cancellation: Cancellation? = nil) throws -> Bitmap {
        let options = try effectiveOptions(options)
        return try withDocument { document, _ in try document.render(pageAt: index, options: options, cancellation: cancellation) }
    }

    /// Draws the page and writes it as an image file on the local disk, as
    /// ``Document/render(pageAt:options:as:to:png:jpegQuality:cancellation:)-(_,_,_,String,_,_,_)``
    /// does: an export, so it needs the ``SessionFeature/printing`` setting and the PDF's
    /// print permission.
    @discardableResult
    public func exportPage(
        at index: Int, options: RenderOptions = RenderOptions(), as format: ImageFileFormat, to path: String,
        png: PNGEncoding = PNGEncoding(), jpegQuality: Int = Bitmap.defaultJPEGQuality, cancellation: Cancellation? = nil
    ) throws -> (width: Int, height: Int) {
        let options = try effectiveOptions(options)
        return try withPermitted([.printing]) { document, _ in
            try document.render(pageAt: index, options: options, as: format, to: path, png: png, jpegQuality: jpegQuality, cancellation: cancellation)
        }
    }

    /// Lends the open document to `body` for printing, once the ``SessionFeature/printing``
    /// setting and the PDF's print permission allow it; `secure` tells whether
    /// ``SessionFeature/securePrinting`` is on. The session is held for as long as `body`
    /// runs: a printing module makes and sends the job inside it.
    public func withPrintableDocument<T>(_ body: (_ document: Document, _ secure: Bool) throws -> T) throws -> T {
        try withPermitted([.printing]) { document, state in try body(document, state.settings[.securePrinting].enabled) }
    }

    /// Lends the open document to `body` to copy its text or images out (a text or Markdown
    /// export, an image file), once the ``SessionFeature/copying`` setting and the PDF's
    /// copy permission allow it. Reading the text (``text(pageAt:)``, ``textPage(pageAt:)``,
    /// search) is not copying and needs neither.
    public func withCopyableDocument<T>(_ body: (_ document: Document) throws -> T) throws -> T {
        try withPermitted([.copying]) { document, _ in try body(document) }
    }

    /// The page's text in reading order.
    public func text(pageAt index: Int) throws -> String {
        try withDocument { document, _ in try document.text(pageAt: index) }
    }

    /// The page's characters with their boxes.
    public func textPage(pageAt index: Int) throws -> TextPage {
        try withDocument { document, _ in try document.textPage(pageAt: index) }
    }

    /// Reads the page's text from its image as ``Document/recognizeText(pageAt:with:cancellation:)``
    /// does. The session is not held while the image is read, so that pages can be read on
    /// several threads at once.
    public func recognizeText(pageAt index: Int, with recognition: TextRecognition, cancellation: Cancellation? = nil) throws -> TextPage {
        let document = try withDocument { document, _ in document }
        return try document.recognizeText(pageAt: index, with: recognition, cancellation: cancellation)
    }

    /// The document's outline.
    public func outline() throws -> [OutlineItem] {
        try withDocument { document, _ in try document.outline() }
    }

    /// The links on the page.
    public func links(pageAt index: Int) throws -> [Link] {
        try withDocument { document, _ in try document.links(pageAt: index) }
    }

    private func effectiveOptions(_ options: RenderOptions) throws -> RenderOptions {
        try withDocument { _, state in
            var options = options
            if options.darkMode {
                guard state.settings[.darkMode].available else {
                    throw RendererError(.notPermitted, "dark mode is not available for this document (setting darkMode)")
                }
            } else {
                options.darkMode = state.settings[.darkMode].available && state.settings[.darkMode].enabled
            }
            return options
        }
    }
}
