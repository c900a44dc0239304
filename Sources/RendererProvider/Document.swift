import Foundation

/// An open document, served by one renderer. Safe to share between threads: calls are
/// serialised, because an engine document must never be used by two threads at once.
/// Open one through ``RendererRegistry/open(_:password:backend:needing:)``.
///
/// A document opened with `auto` keeps the other renderers that could serve it: when its
/// engine finds a page too damaged to read or draw, the document is opened again with the
/// next one, which serves it from then on (``renderer`` says which).
public final class Document: Sendable {
    struct Engine {
        var document: any EngineDocument
        var renderer: any Renderer
        /// Renderers to try, in order, when this one reports damage; none once the document
        /// has changes, which only this engine holds.
        var fallbacks: [any Renderer]
        /// Where the document was read from; the saved file after ``Document/save(mode:)``.
        var source: DocumentSource
        var hasUnsavedChanges = false
    }

    let engine: Locked<Engine>
    let password: String?
    /// What the engine may keep for this document (its workers' documents too).
    public let limits: DocumentLimits
    /// The pixels ``render(pageAt:options:as:to:cancellation:)`` reuses.
    private let scratch = Locked(Bitmap())

    init(
        renderer: any Renderer, source: DocumentSource, password: String?, limits: DocumentLimits, fallbacks: [any Renderer] = []
    ) throws {
        let engineDocument = try Self.translatingErrors(of: renderer) {
            try renderer.openDocument(source, password: password, limits: limits)
        }
        self.password = password
        self.limits = limits
        self.engine = Locked(Engine(document: engineDocument, renderer: renderer, fallbacks: fallbacks, source: source))
    }

    /// The renderer serving this document now.
    public var renderer: any Renderer { engine.withLock { $0.renderer } }

    /// The number of pages; valid page indices are `0..<pageCount`.
    public var pageCount: Int { engine.withLock { $0.document.pageCount } }

    /// The document's version, metadata, encryption and permissions.
    public func info() throws -> DocumentInfo {
        try require(.metadata)
        return try withEngine { document, _ in try document.info() }
    }

    /// Size, rotation and label of the page at `index`.
    public func pageInfo(at index: Int) throws -> PageInfo {
        try withPage(index) { try $0.info() }
    }

    /// Size, rotation and label of every page, in order.
    public func pageInfos() throws -> [PageInfo] {
        try withEngine { document, _ in try (0..<document.pageCount).map { try document.loadPage(at: $0).info() } }
    }

    /// Draws the page at `index` (or the part `options.clip` selects) into a new bitmap.
    ///
    /// The bitmap is `ceil(width x dpi / 72)` by `ceil(height x dpi / 72)` pixels of the page
    /// as displayed (or of the clip, cut to the page), rounded as ``PixelRect/init(covering:scale:)``
    /// says, in rows without padding. Throws `invalidArgument` for a resolution that is not a
    /// positive number or a clip outside the page, and `limitExceeded` when the resolution is
    /// past `options.maximumDPI` or the bitmap would have more than `options.maximumPixelCount`
    /// pixels; all before anything is drawn or allocated. Throws `cancelled` when
    /// `cancellation` is cancelled before or (with MuPDF) while it draws, and `limitExceeded`
    /// when its time limit runs out then.
    public func render(pageAt index: Int, options: RenderOptions = RenderOptions(), cancellation: Cancellation? = nil) throws -> Bitmap {
        var bitmap = Bitmap()
        try render(pageAt: index, options: options, into: &bitmap, cancellation: cancellation)
        return bitmap
    }

    /// Draws the page as ``render(pageAt:options:cancellation:)`` does, into `bitmap`, whose
    /// storage is reused when it is large enough: rendering page after page into one bitmap
    /// allocates memory only when a page needs more than the pages before. The engine draws
    /// straight into that storage. When it throws, `bitmap`'s size is unchanged if the error
    /// came before drawing, and its pixels are unspecified otherwise.
    public func render(pageAt index: Int, options: RenderOptions = RenderOptions(), into bitmap: inout Bitmap, cancellation: Cancellation? = nil) throws {
        guard options.dpi.isFinite, options.dpi > 0 else {
            throw RendererError(.invalidArgument, "resolution must be a positive number of dpi, not \(options.dpi)")
        }
        guard options.dpi <= options.maximumDPI else {
            throw RendererError(
                .limitExceeded, "\(options.dpi.formatted()) dpi is more than the limit of \(options.maximumDPI.formatted()) dpi")
        }
        try withPage(index, needing: .render) { page in
            let size = try page.info().size
            let area = try Self.area(of: PageRect(x: 0, y: 0, width: size.width, height: size.height), clip: options.clip)
            let pixels = try Self.pixels(covering: area, options: options, page: index)
            try bitmap.reshape(width: pixels.width, height: pixels.height, format: options.pixelFormat) { buffer in
                do {
                    try page.render(pixels, options: options, into: buffer, cancellation: cancellation)
                } catch var stopped as RendererError where stopped.code == .cancelled {
                    // The engine stopped because of `cancellation`: report why (a time limit or a cancel).
                    if let reason = cancellation?.error { (stopped.code, stopped.message) = (reason.code, reason.message) }
                    throw stopped
                }
            }
        }
    }

    /// Draws the page as ``render(pageAt:options:cancellation:)`` does and writes it as an
    /// image file, as ``write(_:as:to:)`` does. The pixels go from the engine to the encoder
    /// through one buffer that the document keeps for the next call (and frees when it is
    /// closed), so rendering a whole document allocates about one page's pixels. Returns
    /// the image's size in pixels.
    @discardableResult
    public func render(
        pageAt index: Int, options: RenderOptions = RenderOptions(), as format: ImageFileFormat, to path: String,
        cancellation: Cancellation? = nil
    ) throws -> (width: Int, height: Int) {
        if format == .png { try require(.encodePNG) }
        var bitmap = scratch.withLock { scratch in
            defer { scratch = Bitmap() }
            return scratch
        }
        defer { scratch.withLock { [bitmap] in $0 = bitmap } }
        try render(pageAt: index, options: options, into: &bitmap, cancellation: cancellation)
        try write(bitmap, as: format, to: path)
        return (bitmap.width, bitmap.height)
    }

    /// The page's text in reading order, as the engine's own text tool writes it.
    public func text(pageAt index: Int) throws -> String {
        try withPage(index, needing: .text) { try $0.plainText() }
    }

    /// The page's characters with their boxes, in lines and blocks.
    public func textPage(pageAt index: Int) throws -> TextPage {
        try withPage(index, needing: .text) { try $0.textPage() }
    }

    /// What selecting `rect` (in page space) on the page copies; see ``TextPage/text(in:)``.
    public func text(pageAt index: Int, in rect: PageRect) throws -> String {
        try textPage(pageAt: index).text(in: rect)
    }

    /// Every place `term` occurs on the page, in reading order.
    public func search(_ term: String, pageAt index: Int, options: SearchOptions = SearchOptions()) throws -> [SearchHit] {
        let search = try TextSearch(term: term, options: options)
        return search.hits(in: try textPage(pageAt: index), pageIndex: index)
    }

    /// The pages' text, one page at a time as it is asked for, so a document of any length
    /// is read in the memory one page needs. `pages` defaults to all, in order.
    public func pageTexts(_ pages: [Int]? = nil) -> PageTexts {
        PageTexts(document: self, pages: pages ?? Array(0..<pageCount))
    }

    /// Searches the pages (default: all) one at a time as results are asked for: each hit as
    /// it is found, and a progress report after each page. Stop iterating, or cancel the
    /// task, to stop the search.
    public func search(_ term: String, options: SearchOptions = SearchOptions(), pages: [Int]? = nil) throws -> SearchResults {
        SearchResults(document: self, search: try TextSearch(term: term, options: options), pages: pages ?? Array(0..<pageCount))
    }

    /// The document's outline: its items in order, each with its children.
    public func outline() throws -> [OutlineItem] {
        try require(.outline)
        return try withEngine { document, _ in try document.outline() }
    }

    /// The links on the page, with their areas in page space.
    public func links(pageAt index: Int) throws -> [Link] {
        try withPage(index, needing: .links) { try $0.links() }
    }

    /// Writes the bitmap as an image file at `path`, as ``encode(_:as:)`` makes it, but
    /// straight from the bitmap's bytes to the file. The file appears complete or not at
    /// all: it is written under a temporary name beside `path`, which is removed on failure,
    /// and renamed into place. Throws `ioFailure`, naming the file, when it cannot be written.
    public func write(_ bitmap: Bitmap, as format: ImageFileFormat, to path: String) throws {
        if format == .png { try require(.encodePNG) }
        let renderer = self.renderer
        try AtomicFile.replace(path, durable: false) { temporary in
            switch format {
            case .pnm, .pam: try bitmap.writeNetpbm(format, to: temporary)
            case .png: try Self.translatingErrors(of: renderer) { try renderer.writePNG(bitmap, to: temporary) }
            }
        }
    }

    /// The bitmap as an image file: PNG through this document's engine, PNM or PAM directly.
    public func encode(_ bitmap: Bitmap, as format: ImageFileFormat) throws -> Data {
        switch format {
        case .pnm: return try bitmap.pnmData()
        case .pam: return bitmap.pamData()
        case .png:
            try require(.encodePNG)
            let renderer = self.renderer
            return try Self.translatingErrors(of: renderer) { try renderer.pngData(for: bitmap) }
        }
    }

    private static func area(of page: PageRect, clip: PageRect?) throws -> PageRect {
        guard let clip else { return page }
        let area = clip.intersection(page)
        guard !area.isEmpty else {
            throw RendererError(
                .invalidArgument,
                "clip \(clip.minX),\(clip.minY) \(clip.size.width)x\(clip.size.height) pt does not overlap the \(page.size.width)x\(page.size.height) pt page")
        }
        return area
    }

    private static func pixels(covering area: PageRect, options: RenderOptions, page: Int) throws -> PixelRect {
        let limit = options.maximumPixelCount
        guard let pixels = PixelRect(covering: area, scale: options.scale), pixels.pixelCount <= limit else {
            let covering = PixelRect(covering: area, scale: options.scale)
            let width = covering.map { Double($0.width) } ?? (area.size.width * options.scale).rounded(.up)
            let height = covering.map { Double($0.height) } ?? (area.size.height * options.scale).rounded(.up)
            throw RendererError(
                .limitExceeded,
                "at \(options.dpi.formatted()) dpi the page would be \(width.formatted()) x \(height.formatted()) pixels, more than the limit of \(limit.formatted()) pixels; lower the resolution or render a clip")
        }
        guard pixels.width > 0, pixels.height > 0 else {
            throw RendererError(.invalidArgument, "page \(page + 1) at \(options.dpi) dpi is smaller than one pixel")
        }
        return pixels
    }

    /// Runs `body` on page `index` of the current engine, after checking the capability and
    /// the index against that engine's page count.
    func withPage<T: Sendable>(_ index: Int, needing capability: Capability? = nil, _ body: (any EnginePage) throws -> T) throws -> T {
        if let capability { try require(capability) }
        return try withEngine { document, renderer in
            guard (0..<document.pageCount).contains(index) else {
                let count = document.pageCount
                throw RendererError(
                    .pageOutOfRange,
                    "page index \(index) is out of range: the document has \(count) page\(count == 1 ? "" : "s") (indices 0...\(count - 1))",
                    backend: renderer.id)
            }
            return try body(document.loadPage(at: index))
        }
    }

    func require(_ capability: Capability) throws {
        let renderer = self.renderer
        guard renderer.capabilities.contains(capability) else {
            throw RendererError(.unsupported, "\(renderer.engineName) cannot \(capability.rawValue) here", backend: renderer.id)
        }
    }

    /// Runs `body` with the engine document, holding the lock. When the engine reports
    /// damage and fallback renderers remain, the document is reopened with the next one
    /// that can open it and `body` runs again.
    func withEngine<T: Sendable>(_ body: (any EngineDocument, any Renderer) throws -> T) throws -> T {
        try withEngineState { state in try body(state.document, state.renderer) }
    }

    /// Runs `body` with the whole engine state, holding the lock, reopening with a fallback
    /// renderer on damage as ``withEngine(_:)`` does.
    func withEngineState<T: Sendable>(_ body: (inout Engine) throws -> T) throws -> T {
        let (password, limits) = (self.password, self.limits)
        return try Self.translatingErrors(of: renderer) {
            try engine.withLock { state in
                while true {
                    do {
                        return try body(&state)
                    } catch let error as RendererError where error.code == .damaged && !state.fallbacks.isEmpty {
                        guard let reopened = Self.open(state.source, password: password, limits: limits, withFirstOf: &state.fallbacks) else {
                            throw error
                        }
                        state.document = reopened.document
                        state.renderer = reopened.renderer
                    }
                }
            }
        }
    }

    /// `source` opened by the first of `renderers` that can; those tried are removed.
    private static func open(
        _ source: DocumentSource, password: String?, limits: DocumentLimits, withFirstOf renderers: inout [any Renderer]
    ) -> (document: any EngineDocument, renderer: any Renderer)? {
        while !renderers.isEmpty {
            let next = renderers.removeFirst()
            if let document = try? next.openDocument(source, password: password, limits: limits) { return (document, next) }
        }
        return nil
    }

    /// Runs `body`, passing ``RendererError``s through and wrapping anything else as an engine failure.
    static func translatingErrors<T>(of renderer: any Renderer, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RendererError {
            throw error
        } catch {
            throw RendererError(.engineFailure, "unexpected error: \(error)", backend: renderer.id)
        }
    }
}
