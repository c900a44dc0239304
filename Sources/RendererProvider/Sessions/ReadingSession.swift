#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A reader's session with one document, as a reading app runs it: opened at a page with
/// the reader's bookmarks and annotations, enforcing the document's settings and the PDF's
/// permissions, and telling the host (its delegate and ``events()`` streams) of every
/// change, every save and the close, in the order ``SessionEvent`` documents.
///
/// ```swift
/// let session = ReadingSession(file: FileState(internalPath: path), registry: registry,
///                              configuration: SessionConfiguration(pageIndex: lastPage), delegate: self)
/// try session.open()
/// try session.goToPage(3)
/// try session.addAnnotation(note)      // the delegate hears didChangeAnnotations
/// try session.save()
/// session.close()                      // the delegate hears didCloseWith(viewingState)
/// ```
///
/// A session is safe to share between threads; its calls are serialised. Every call but
/// ``close()`` and ``events()`` throws `sessionClosed` before ``open()`` and after the close.
public final class ReadingSession: Sendable {
    /// The file the session works on.
    public let file: FileState
    private let registry: RendererRegistry
    let configuration: SessionConfiguration
    private let state: RecursiveLocked<State>

    enum Phase {
        case new
        case open(Document)
        case closed
    }

    /// The session's mutable state, used under the session's lock.
    final class State {
        var phase = Phase.new
        weak var delegate: (any ReadingSessionDelegate)?
        var settings: DocumentSettings
        var viewing = ViewingState()
        var bookmarks: [Bookmark]
        var pdfPermissions = DocumentPermissions.all
        /// The original file as it was when the session opened, for copy-back.
        var originalStamp: FileStamp?
        var streams: [UUID: AsyncStream<SessionEvent>.Continuation] = [:]
        /// The reader's edits that ``ReadingSession/undo()`` takes back, the last last.
        var undoStack: [SessionEdit] = []
        /// The edits undone that ``ReadingSession/redo()`` makes again, the last undone last.
        var redoStack: [SessionEdit] = []
        /// True while an undo or redo makes its edit, which is then not recorded as new.
        var isReplaying = false

        init(settings: DocumentSettings, bookmarks: [Bookmark], delegate: (any ReadingSessionDelegate)?) {
            self.settings = settings
            self.bookmarks = bookmarks
            self.delegate = delegate
        }
    }

    /// A session over `file`, not yet open: call ``open()``. The delegate is held weakly.
    public init(
        file: FileState, registry: RendererRegistry, configuration: SessionConfiguration = SessionConfiguration(),
        delegate: (any ReadingSessionDelegate)? = nil
    ) {
        self.file = file
        self.registry = registry
        self.configuration = configuration
        state = RecursiveLocked(State(settings: configuration.settings, bookmarks: configuration.bookmarks, delegate: delegate))
    }

    /// The session's events from now on, until it closes; each call makes a new stream.
    public func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self)
        state.withLock { state in
            if case .closed = state.phase {
                continuation.finish()
            } else {
                let id = UUID()
                state.streams[id] = continuation
                continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
            }
        }
        return stream
    }

    // MARK: Opening and closing

    /// Opens the document: checks the expiry date, opens the file, adds the host's
    /// annotations the file does not hold, loads the page to open at and shows it.
    ///
    /// Throws (after a `loadFailed` event) `expired` past the settings' expiry date unless the
    /// delegate allows it, `invalidArgument` for a copy-back file state without an original
    /// path or a host annotation the document cannot take, and whatever opening the document
    /// throws; the session is then closed.
    public func open() throws {
        try state.withLock { state in
            guard case .new = state.phase else {
                throw RendererError(.sessionClosed, "the session was already opened; open a new session")
            }
            let document: Document, page: Int, clamped: PageClamp?
            do {
                (document, page, clamped) = try load(state)
            } catch let error as RendererError {
                state.phase = .closed
                emit(.loadFailed(error), in: state)
                finishStreams(state)
                throw error
            }
            state.phase = .open(document)
            state.viewing.pageIndex = page
            emit(.firstPageLoaded(pageIndex: page, clamped: clamped), in: state)
            emit(.documentShown(state.viewing), in: state)
            if let collaboration = configuration.collaboration {
                collaboration.documentLoaded(self, annotations: try document.annotations())
            }
        }
    }

    /// Opens the document into `state`, and loads the page to open at: that page, and why it
    /// is not the one asked for, if it is not.
    private func load(_ state: State) throws -> (Document, page: Int, clamped: PageClamp?) {
        if let expiry = state.settings.expiryDate, configuration.clock() >= expiry,
           state.delegate?.session(self, shouldOpenExpiredDocument: expiry) != true {
            throw RendererError(.expired, "\(file.displayPath) expired on \(expiry.formatted(.iso8601)); it can no longer be opened")
        }
        if file.requiresCopyBack, file.originalPath == nil {
            throw RendererError(.invalidArgument, "the file state requires copy-back but names no original path")
        }
        let files = configuration.fileSystem
        let source: DocumentSource = files is LocalFileSystem ? .file(file.internalPath) : .stream(try files.documentStream(file.internalPath))
        let document = try registry.open(source, password: configuration.password, renderer: configuration.renderer, limits: configuration.limits)
        guard document.pageCount > 0 else { throw RendererError(.damaged, "\(file.displayPath) has no pages") }
        document.textRecognition = configuration.textRecognition
        state.pdfPermissions = try document.info().permissions
        if file.requiresCopyBack, let original = file.originalPath { state.originalStamp = try FileStamp(of: original, in: files) }
        try applyHostAnnotations(to: document)
        var viewing = file.viewingState ?? ViewingState()
        if !(viewing.zoom.isFinite && viewing.zoom > 0) { viewing.zoom = 1 }
        state.viewing = viewing
        let (page, clamped) = openingPage(pageCount: document.pageCount)
        _ = try document.pageInfo(pageAt: page)
        return (document, page, clamped)
    }

    /// Adds the host's annotations that the document does not hold, by identity.
    private func applyHostAnnotations(to document: Document) throws {
        guard !configuration.annotations.isEmpty else { return }
        let held = Set(try document.annotations().map(\.id))
        for annotation in configuration.annotations where annotation.id.isEmpty || !held.contains(annotation.id) {
            guard (0..<document.pageCount).contains(annotation.pageIndex) else {
                throw RendererError(
                    .invalidArgument, "the host's annotation \"\(annotation.id)\" is on page \(annotation.pageIndex + 1), past the document's \(document.pageCount) pages")
            }
            try document.addAnnotation(annotation)
        }
    }

    /// The page to open at, clamped to the document, and why when it was.
    private func openingPage(pageCount: Int) -> (index: Int, clamped: PageClamp?) {
        let requested = configuration.pageIndex ?? file.viewingState?.pageIndex ?? 0
        let index = min(max(requested, 0), pageCount - 1)
        guard index != requested else { return (index, nil) }
        let reason = requested < 0
            ? "page index \(requested) is before the first page"
            : "page \(requested + 1) was asked for, and the document has \(pageCount) page\(pageCount == 1 ? "" : "s")"
        return (index, PageClamp(requested: requested, opened: index, reason: reason))
    }

    /// Closes the session: tells `willClose` and `closed` with the viewing state, then ends
    /// every event stream. Closing again, or closing a session never opened, does nothing
    /// more. Unsaved changes are dropped: save first.
    public func close() {
        state.withLock { state in
            switch state.phase {
            case .closed:
                return
            case .new:
                state.phase = .closed
            case .open:
                emit(.willClose(pageIndex: state.viewing.pageIndex), in: state)
                state.phase = .closed
                emit(.closed(state.viewing), in: state)
            }
            finishStreams(state)
        }
    }

    /// True once the session is closed (or failed to open).
    public var isClosed: Bool {
        state.withLock { if case .closed = $0.phase { true } else { false } }
    }

    // MARK: Where the reader is

    /// The number of pages.
    public var pageCount: Int {
        get throws { try withDocument { document, _ in document.pageCount } }
    }

    /// The 0-based index of the current page.
    public var currentPageIndex: Int {
        get throws { try withDocument { _, state in state.viewing.pageIndex } }
    }

    /// Where the reader is: page, zoom and scroll offset.
    public var viewingState: ViewingState {
        get throws { try withDocument { _, state in state.viewing } }
    }

    /// Makes the page at `index` current; `pageOutOfRange` when there is none.
    public func goToPage(_ index: Int) throws {
        var viewing = try viewingState
        viewing.pageIndex = index
        try setViewingState(viewing)
    }

    /// Sets where the reader is. Throws `pageOutOfRange` for a page the document does not
    /// have and `invalidArgument` for a zoom that is not a positive number or an offset that
    /// is not finite; the state is then unchanged.
    public func setViewingState(_ viewing: ViewingState) throws {
        try withDocument { document, state in
            try Self.requirePage(viewing.pageIndex, of: document)
            guard viewing.zoom.isFinite, viewing.zoom > 0 else {
                throw RendererError(.invalidArgument, "zoom must be a positive number, not \(viewing.zoom)")
            }
            guard viewing.scrollOffset.x.isFinite, viewing.scrollOffset.y.isFinite else {
                throw RendererError(.invalidArgument, "the scroll offset must be finite")
            }
            let old = state.viewing.pageIndex
            state.viewing = viewing
            if old != viewing.pageIndex { emit(.currentPageChanged(from: old, to: viewing.pageIndex), in: state) }
        }
    }

    // MARK: Settings

    /// The settings the session enforces.
    public var settings: DocumentSettings {
        state.withLock { $0.settings }
    }

    /// The PDF's own permissions, as the password the session opened with grants them.
    public var pdfPermissions: DocumentPermissions {
        get throws { try withDocument { _, state in state.pdfPermissions } }
    }

    /// Throws `notPermitted`, naming the setting or the PDF permission, unless `feature` may
    /// be used now: the settings permit it and the PDF grants the permission it needs.
    public func check(_ feature: SessionFeature) throws {
        try withDocument { _, state in try Self.check(feature, state) }
    }

    /// Switches a feature on or off (dark mode, full screen, or an action the host pauses).
    /// Switching one on that is not available throws `notPermitted`, and so does switching
    /// secure printing off when it is not available: a host that requires it sets it enabled
    /// and unavailable.
    public func setEnabled(_ enabled: Bool, for feature: SessionFeature) throws {
        try withDocument { _, state in
            if enabled || feature == .securePrinting, !state.settings[feature].available {
                throw RendererError(.notPermitted, "\(feature.rawValue) is not available for \(file.displayPath) (setting \(feature.rawValue))")
            }
            state.settings[feature].enabled = enabled
        }
    }

    private static func check(_ feature: SessionFeature, _ state: State) throws {
        try state.settings.check(feature, pdfPermissions: state.pdfPermissions)
    }

    // MARK: Internals shared by the session's extensions

    /// Runs `body` with the open document and the session's state, holding the lock;
    /// `sessionClosed` when the session is not open.
    func withDocument<T>(_ body: (Document, State) throws -> T) throws -> T {
        try state.withLock { state in
            switch state.phase {
            case .open(let document): return try body(document, state)
            case .new: throw RendererError(.sessionClosed, "the session is not open yet; call open() first")
            case .closed: throw RendererError(.sessionClosed, "the session for \(file.displayPath) is closed")
            }
        }
    }

    /// Runs `body` with the session's state, holding its lock, whatever the session's phase.
    func withState<T>(_ body: (State) throws -> T) rethrows -> T {
        try state.withLock(body)
    }

    /// Runs `body` after checking that `features` may be used.
    func withPermitted<T>(_ features: [SessionFeature], _ body: (Document, State) throws -> T) throws -> T {
        try withDocument { document, state in
            for feature in features { try Self.check(feature, state) }
            return try body(document, state)
        }
    }

    static func requirePage(_ index: Int, of document: Document) throws {
        let count = document.pageCount
        guard (0..<count).contains(index) else {
            throw RendererError(.pageOutOfRange, "page index \(index) is out of range: the document has \(count) page\(count == 1 ? "" : "s")")
        }
    }

    /// Tells the delegate and every stream of `event`.
    func emit(_ event: SessionEvent, in state: State) {
        for continuation in state.streams.values { continuation.yield(event) }
        guard let delegate = state.delegate else { return }
        switch event {
        case .loadFailed(let error): delegate.session(self, didFailToLoad: error)
        case .firstPageLoaded(let page, let clamped): delegate.session(self, didLoadFirstPage: page, clamped: clamped)
        case .documentShown(let viewing): delegate.session(self, didShow: viewing)
        case .bookmarksChanged(let bookmarks): delegate.session(self, didChangeBookmarks: bookmarks)
        case .annotationsChanged(let changes): delegate.session(self, didChangeAnnotations: changes)
        case .metadataChanged(let metadata): delegate.session(self, didChangeMetadata: metadata)
        case .attachmentsChanged(let attachments): delegate.session(self, didChangeAttachments: attachments)
        case .outlineChanged(let outline): delegate.session(self, didChangeOutline: outline)
        case .linksChanged(let page, let links): delegate.session(self, didChangeLinks: links, pageAt: page)
        case .formChanged(let fields): delegate.session(self, didChangeForm: fields)
        case .pagesChanged(let count): delegate.session(self, didChangePages: count)
        case .signed(let field): delegate.session(self, didSign: field)
        case .currentPageChanged(let old, let new): delegate.session(self, didChangeCurrentPageFrom: old, to: new)
        case .willSave, .copyBackRequested: break  // asked of the delegate as decisions, not told
        case .saved(let path): delegate.session(self, didSaveTo: path)
        case .saveFailed(let error): delegate.session(self, didFailToSave: error)
        case .saveCancelled: delegate.sessionDidCancelSave(self)
        case .copiedBack(let path): delegate.session(self, didCopyBackTo: path)
        case .copyBackFailed(let error): delegate.session(self, didFailToCopyBack: error)
        case .willClose(let page): delegate.session(self, willCloseOnPage: page)
        case .closed(let viewing): delegate.session(self, didCloseWith: viewing)
        }
    }

    private func finishStreams(_ state: State) {
        for continuation in state.streams.values { continuation.finish() }
        state.streams = [:]
    }
}
