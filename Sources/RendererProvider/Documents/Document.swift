#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An open document, served by one renderer. Safe to share between threads: calls are
/// serialised, because an engine document must never be used by two threads at once.
/// Open one through ``RendererRegistry/open(_:password:renderer:needing:limits:)``.
///
/// A document has at least one page: one its engine reads as none is refused as damaged.
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

        /// The engine document as `Conformance`, one of the document capability protocols;
        /// `unsupported` when it does not conform.
        func document<Conformance>(as type: Conformance.Type) throws -> Conformance {
            try document.capability(type, rendererID: renderer.id)
        }
    }

    let engine: Locked<Engine>
    let password: String?
    /// What the engine may keep for this document (its workers' documents too).
    public let limits: DocumentLimits
    /// The pixels ``render(pageAt:options:as:to:png:jpegQuality:cancellation:)-(_,_,_,String,_,_,_)`` reuses.
    let scratch = Locked(Bitmap())
    /// Text recognition's choice and the pages it has read (``textRecognition``).
    let recognitionState = Locked(RecognitionState())

    init(
        renderer: any Renderer, source: DocumentSource, password: String?, limits: DocumentLimits, fallbacks: [any Renderer] = []
    ) throws {
        let engineDocument = try Self.translatingErrors(of: renderer) {
            try Self.surfacingStreamFailure(of: source) { try renderer.openDocument(source, password: password, limits: limits) }
        }
        // A document is its pages: one an engine reads as none (a page tree it cannot find, a
        // cross-reference chain that loops) is damaged, so that `auto` tries the next engine.
        guard engineDocument.pageCount > 0 else {
            throw RendererError(.damaged, "\(source.displayName) is damaged: \(renderer.engineName) finds no pages in it", rendererID: renderer.id)
        }
        self.password = password
        self.limits = limits
        self.engine = Locked(Engine(document: engineDocument, renderer: renderer, fallbacks: fallbacks, source: source))
    }

    /// The renderer serving this document now.
    public var renderer: any Renderer { engine.withLock { $0.renderer } }

    /// The id of the renderer serving the document (`mupdf`, `poppler`).
    public var rendererID: String { renderer.id }
    /// The name of the serving renderer's engine.
    public var engineName: String { renderer.engineName }
    /// The serving renderer's engine version.
    public var engineVersion: String { renderer.engineVersion }

    /// The number of pages; valid page indices are `0..<pageCount`.
    public var pageCount: Int { engine.withLock { $0.document.pageCount } }

    /// What the document is: a PDF, or another format its renderer reads. What can be done
    /// with it follows: other formats are read, drawn and searched, never changed or saved.
    public var contentType: ContentType { engine.withLock { $0.document.contentType } }

    /// The document's version, metadata, encryption and permissions.
    public func info() throws -> DocumentInfo {
        try withEngine(as: MetadataReading.self, needing: .metadata) { document, _ in try document.info() }
    }

    /// Size, rotation and label of the page at `index`.
    public func pageInfo(pageAt index: Int) throws -> PageInfo {
        try withPage(index) { try $0.info() }
    }

    /// Size, rotation and label of every page, in order.
    public func pageInfos() throws -> [PageInfo] {
        try withEngine { document, _ in try document.pageInfos() }
    }

    /// The page's text in reading order, as the engine's own text tool writes it; for a
    /// page ``textRecognition`` reads, the recognised text (`TextPage.text`).
    public func text(pageAt index: Int) throws -> String {
        if let recognized = try recognizedTextPage(pageAt: index, engineText: { try engineTextPage(pageAt: index) }) {
            return recognized.text
        }
        return try withPage(index, needing: .text) { try $0.plainText() }
    }

    /// The page's characters with their boxes, in lines and blocks; for a page
    /// ``textRecognition`` reads, those recognition found, with their confidences.
    public func textPage(pageAt index: Int) throws -> TextPage {
        var own: TextPage?
        let recognized = try recognizedTextPage(pageAt: index) {
            own = try engineTextPage(pageAt: index)
            return own!
        }
        if let page = recognized ?? own { return page }
        return try withPage(index, needing: .text) { try $0.textPage() }
    }

    /// The text the page holds, as its engine reads it; none from an engine that reads no
    /// text, so that text recognition reads such a page.
    private func engineTextPage(pageAt index: Int) throws -> TextPage {
        guard supports(.text) else { return TextPage(blocks: []) }
        return try withPage(index) { try $0.textPage() }
    }

    /// What selecting `rect` (in page space) on the page copies; see `TextPage.text(in:)`.
    public func text(pageAt index: Int, in rect: PageRect) throws -> String {
        try textPage(pageAt: index).text(in: rect)
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

    /// Every place `term` occurs on the page, in reading order: the search every backend
    /// shares, over ``textPage(pageAt:)``.
    public func search(_ term: String, pageAt index: Int, options: SearchOptions = SearchOptions()) throws -> [SearchHit] {
        let search = try TextSearch(term: term, options: options)
        return search.hits(in: try textPage(pageAt: index), pageIndex: index)
    }

    /// Where the named destination `name` leads (a PDF's `/Dests` dictionary or name tree,
    /// what `#nameddest=` in a link to the document names), in page space; nil when the
    /// document has no such name, or its engine reads none (a name holding U+0000, which engines cannot be asked for,
    /// finds none).
    public func destination(named name: String) throws -> Destination? {
        guard !name.unicodeScalars.contains("\u{0}") else { return nil }
        return try withEngine { document, _ in try (document as? any OutlineReading)?.namedDestination(name) }
    }

    /// The fonts the document's pages use, each font dictionary once, in the order the pages
    /// first use them: what `pdffonts` lists. Throws `unsupported` for an engine or format
    /// that cannot list them.
    public func fonts() throws -> [FontInfo] {
        try withEngine(as: ContentReading.self, needing: nil) { document, _ in try document.fonts() }
    }

    /// The document's outline: its items in order, each with its children.
    public func outline() throws -> [OutlineItem] {
        try withEngine(as: OutlineReading.self, needing: .outline) { document, _ in try document.outline() }
    }

    /// The links on the page, with their areas in page space.
    public func links(pageAt index: Int) throws -> [Link] {
        try withPage(index, needing: .links, as: LinkReading.self) { try $0.links() }
    }

    /// Runs `body` on page `index` of the current engine, after checking the capability and
    /// the index against that engine's page count.
    func withPage<T: Sendable>(_ index: Int, needing capability: Capability? = nil, _ body: (any EnginePage) throws -> T) throws -> T {
        try withPage(index, needing: capability) { page, _ in try body(page) }
    }

    /// Runs `body` with the page at `index` and its engine document, as ``withPage(_:needing:_:)`` does.
    func withPage<T: Sendable>(
        _ index: Int, needing capability: Capability? = nil, _ body: (any EnginePage, any EngineDocument) throws -> T
    ) throws -> T {
        if let capability { try require(capability) }
        return try withEngine { document, renderer in try body(Self.page(index, of: document, renderer: renderer), document) }
    }

    /// Runs `body` with the page at `index` as `Conformance`, one of the page capability
    /// protocols (``LinkReading``...), after checking `capability` when one is given; throws
    /// `unsupported` when the serving engine's page does not conform.
    func withPage<Conformance, T: Sendable>(
        _ index: Int, needing capability: Capability?, as type: Conformance.Type, _ body: (Conformance) throws -> T
    ) throws -> T {
        if let capability { try require(capability) }
        return try withEngine { document, renderer in
            try body(Self.page(index, of: document, renderer: renderer).capability(type, rendererID: renderer.id))
        }
    }

    /// Page `index` of `document`, checked against its page count.
    private static func page(_ index: Int, of document: any EngineDocument, renderer: any Renderer) throws -> any EnginePage {
        guard (0..<document.pageCount).contains(index) else {
            let count = document.pageCount
            throw RendererError(
                .pageOutOfRange,
                "page index \(index) is out of range: the document has \(count) page\(count == 1 ? "" : "s") (indices 0...\(count - 1))",
                rendererID: renderer.id)
        }
        return try document.loadPage(at: index)
    }

    /// Notes that the engine document now holds changes. A document with changes stays with
    /// its renderer: only it holds them.
    func markChanged() {
        engine.withLock { state in
            state.hasUnsavedChanges = true
            state.fallbacks = []
        }
        forgetRecognizedText()
    }

    /// Throws `notPermitted` unless the PDF grants `permission`, naming `what` it would allow.
    func require(_ permission: DocumentPermissions, toAllow what: String) throws {
        if try !info().permissions.contains(permission) {
            throw RendererError(.notPermitted, "the document does not permit \(what); open it with the owner password", rendererID: renderer.id)
        }
    }

    /// Whether the serving renderer can do `capability` for this document's content type.
    func supports(_ capability: Capability) -> Bool {
        engine.withLock { $0.renderer.capabilities(for: $0.document.contentType).contains(capability) }
    }

    func require(_ capability: Capability) throws {
        guard supports(capability) else {
            let (renderer, contentType) = engine.withLock { ($0.renderer, $0.document.contentType) }
            let what = contentType == .pdf ? "" : " in a document of type \(contentType)"
            throw RendererError(.unsupported, "\(renderer.engineName) cannot \(capability.rawValue) here\(what)", rendererID: renderer.id)
        }
    }

    /// Runs `body` with the engine document, holding the lock. When the engine reports
    /// damage and fallback renderers remain, the document is reopened with the next one
    /// that can open it and `body` runs again.
    func withEngine<T: Sendable>(_ body: (any EngineDocument, any Renderer) throws -> T) throws -> T {
        try withEngineState { state in try body(state.document, state.renderer) }
    }

    /// Runs `body` with the engine document as `Conformance`, one of the document capability
    /// protocols (``MetadataReading``...), after checking `capability` when one is given;
    /// throws `unsupported` when the serving engine's document does not conform.
    func withEngine<Conformance, T: Sendable>(
        as type: Conformance.Type, needing capability: Capability?, _ body: (Conformance, any Renderer) throws -> T
    ) throws -> T {
        if let capability { try require(capability) }
        return try withEngine { document, renderer in try body(document.capability(type, rendererID: renderer.id), renderer) }
    }

    /// Runs `body` with the whole engine state, holding the lock, reopening with a fallback
    /// renderer on damage as ``withEngine(_:)`` does.
    func withEngineState<T: Sendable>(_ body: (inout Engine) throws -> T) throws -> T {
        let (password, limits) = (self.password, self.limits)
        return try Self.translatingErrors(of: renderer) {
            try engine.withLock { state in
                while true {
                    do {
                        return try Self.surfacingStreamFailure(of: state.source) { try body(&state) }
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

    /// Runs `body`; when the document is read from a stream whose reader has failed, throws
    /// the reader's error instead of what `body` returned or threw, so that nothing made
    /// from missing bytes reaches the caller.
    static func surfacingStreamFailure<T>(of source: DocumentSource, _ body: () throws -> T) throws -> T {
        guard case .stream(let stream) = source else { return try body() }
        if let failure = stream.failure { throw failure }
        let result: T
        do {
            result = try body()
        } catch {
            throw stream.failure ?? error
        }
        if let failure = stream.failure { throw failure }
        return result
    }

    /// Runs `body`, passing ``RendererError``s through and wrapping anything else as an engine failure.
    static func translatingErrors<T>(of renderer: any Renderer, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RendererError {
            throw error
        } catch {
            throw RendererError(.engineFailure, "unexpected error: \(error)", rendererID: renderer.id)
        }
    }
}
