/// The API for async code: the same operations as the synchronous ones, with their engine
/// work on ``EngineThreads`` (never on Swift's cooperative pool) and task cancellation
/// bridged to ``Cancellation``: a cancelled task stops MuPDF within the page it draws,
/// Poppler before the next page, and throws `cancelled`.
extension RendererRegistry {
    /// Opens a document as ``open(_:password:renderer:needing:limits:)`` does, on `threads`.
    public func open(
        _ source: DocumentSource, password: String? = nil, renderer selection: RendererSelection = .auto,
        needing capabilities: Set<Capability> = [], limits: DocumentLimits = DocumentLimits(), on threads: EngineThreads = .shared
    ) async throws -> Document {
        try await threads.run { _ in try self.open(source, password: password, renderer: selection, needing: capabilities, limits: limits) }
    }
}

extension Document {
    /// Draws a page as ``render(pageAt:options:cancellation:)`` does, on `threads`.
    public func render(pageAt index: Int, options: RenderOptions = RenderOptions(), on threads: EngineThreads = .shared) async throws -> Bitmap {
        try await threads.run { try self.render(pageAt: index, options: options, cancellation: $0) }
    }

    /// Draws a page and writes it as an image file, as ``render(pageAt:options:as:to:png:jpegQuality:cancellation:)-(_,_,_,String,_,_,_)`` does.
    @discardableResult
    public func render(
        pageAt index: Int, options: RenderOptions = RenderOptions(), as format: ImageFileFormat, to path: String,
        png: PNGEncoding = PNGEncoding(), jpegQuality: Int = Bitmap.defaultJPEGQuality, on threads: EngineThreads = .shared
    ) async throws -> (width: Int, height: Int) {
        let size = try await threads.run {
            try self.render(pageAt: index, options: options, as: format, to: path, png: png, jpegQuality: jpegQuality, cancellation: $0)
        }
        return (size.width, size.height)
    }

    /// Draws `pages` in order, one page at a time as the sequence is read (a viewer's
    /// thumbnails, an export): each bitmap with its page index. Cancelling the reading task
    /// stops the drawing (MuPDF within the page, Poppler before the next) with `cancelled`.
    public func renders(of pages: [Int], options: RenderOptions = RenderOptions(), on threads: EngineThreads = .shared) -> PageRenders {
        PageRenders(document: self, pages: pages, options: options, threads: threads)
    }

    /// The page's text, as ``text(pageAt:)`` gives it.
    public func text(pageAt index: Int, on threads: EngineThreads = .shared) async throws -> String {
        try await threads.run { _ in try self.text(pageAt: index) }
    }

    /// The page's characters with their boxes, as ``textPage(pageAt:)`` gives them.
    public func textPage(pageAt index: Int, on threads: EngineThreads = .shared) async throws -> TextPage {
        try await threads.run { _ in try self.textPage(pageAt: index) }
    }

    /// Every hit of `term` on `pages` (default: all), in page order, searched a page at a
    /// time; cancelling the task stops it between pages. For hits as they are found, use
    /// ``search(_:options:pages:)``.
    public func hits(of term: String, options: SearchOptions = SearchOptions(), pages: [Int]? = nil) async throws -> [SearchHit] {
        var hits: [SearchHit] = []
        for try await event in try search(term, options: options, pages: pages) {
            if case .hit(let hit) = event { hits.append(hit) }
        }
        return hits
    }

    /// The annotations on every page, as ``annotations()`` lists them.
    public func annotations(on threads: EngineThreads = .shared) async throws -> [Annotation] {
        try await threads.run { _ in try self.annotations() }
    }

    /// Adds an annotation as ``addAnnotation(_:)`` does.
    @discardableResult
    public func addAnnotation(_ annotation: Annotation, on threads: EngineThreads = .shared) async throws -> Annotation {
        try await threads.run { _ in try self.addAnnotation(annotation) }
    }

    /// Changes an annotation as ``updateAnnotation(_:)`` does.
    @discardableResult
    public func updateAnnotation(_ annotation: Annotation, on threads: EngineThreads = .shared) async throws -> Annotation {
        try await threads.run { _ in try self.updateAnnotation(annotation) }
    }

    /// Removes an annotation as ``removeAnnotation(withID:onPageAt:)`` does.
    public func removeAnnotation(withID id: String, onPageAt pageIndex: Int? = nil, on threads: EngineThreads = .shared) async throws {
        try await threads.run { _ in try self.removeAnnotation(withID: id, onPageAt: pageIndex) }
    }
}

/// One page drawn by ``Document/renders(of:options:on:)``.
public struct RenderedPage: Hashable, Sendable {
    /// The 0-based index of the page.
    public var pageIndex: Int
    /// The page's pixels.
    public var bitmap: Bitmap
}

/// Pages drawn one per step on ``EngineThreads``; see ``Document/renders(of:options:on:)``.
public struct PageRenders: AsyncSequence, Sendable {
    public typealias Element = RenderedPage
    let document: Document
    let pages: [Int]
    let options: RenderOptions
    let threads: EngineThreads

    public struct AsyncIterator: AsyncIteratorProtocol {
        let renders: PageRenders
        var position = 0

        public mutating func next() async throws -> RenderedPage? {
            guard position < renders.pages.count else { return nil }
            let index = renders.pages[position]
            position += 1
            return RenderedPage(pageIndex: index, bitmap: try await renders.document.render(pageAt: index, options: renders.options, on: renders.threads))
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(renders: self)
    }
}
