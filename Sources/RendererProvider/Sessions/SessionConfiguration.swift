#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a ``ReadingSession`` opens its document: the page, the password and renderer, the
/// settings it enforces, and the reader's bookmarks and annotations that the host kept.
public struct SessionConfiguration: Sendable {
    /// The 0-based page to open at; `nil` opens at the file state's viewing state, else at
    /// the first page. A page past the document is clamped, and the reason reported.
    public var pageIndex: Int?
    /// The user or owner password of an encrypted document.
    public var password: String?
    /// The renderer to open with, or `auto`.
    public var renderer: RendererSelection
    /// What the engine may keep in its caches.
    public var limits: DocumentLimits
    /// What the session allows.
    public var settings: DocumentSettings
    /// The reader's bookmarks, as the host kept them.
    public var bookmarks: [Bookmark]
    /// The reader's annotations, as the host kept them. Those the file does not hold (by
    /// identity) are added to the session's document when it opens; those it holds are left.
    public var annotations: [Annotation]
    /// What time it is, for the expiry date; tests give a fixed clock.
    public var clock: @Sendable () -> Date
    /// Where the file state's paths are: the local disk, or an application's file system
    /// (such as an encrypted one), which the engines then read from and saves write into.
    public var fileSystem: any FileSystem
    /// The collaboration the session takes part in, if any: the session then tells it of
    /// every local change, stamps the reader as author of what they add, and refuses
    /// changes to other readers' annotations that the reader's permissions do not grant.
    public var collaboration: (any CollaborationService)?
    /// The most edits ``ReadingSession/undo()`` can take back (default 100); older ones are
    /// forgotten.
    public var undoLimit = 100
    /// The most bytes the copies that undoing page deletions needs may take (default 64 MiB);
    /// the oldest edits are forgotten beyond it.
    public var undoByteLimit = 64 << 20
    /// The text recognition the document reads its scanned pages with (``Document/textRecognition``);
    /// none by default.
    public var textRecognition: TextRecognition?

    /// A configuration as each property describes; everything allowed and the local disk by
    /// default.
    public init(
        pageIndex: Int? = nil, password: String? = nil, renderer: RendererSelection = .auto, limits: DocumentLimits = DocumentLimits(),
        settings: DocumentSettings = DocumentSettings(), bookmarks: [Bookmark] = [], annotations: [Annotation] = [],
        clock: @escaping @Sendable () -> Date = { Date() }, fileSystem: any FileSystem = LocalFileSystem(),
        collaboration: (any CollaborationService)? = nil
    ) {
        self.pageIndex = pageIndex
        self.password = password
        self.renderer = renderer
        self.limits = limits
        self.settings = settings
        self.bookmarks = bookmarks
        self.annotations = annotations
        self.clock = clock
        self.fileSystem = fileSystem
        self.collaboration = collaboration
    }
}

/// How a save went.
public enum SaveResult: Hashable, Sendable {
    /// The document was saved to `path` (and copied back, where the file state requires it).
    case saved(path: String)
    /// The document was saved to `path`, but not copied back: `error` says why (a
    /// `conflict` when someone else changed the original) and where the saved file is.
    case savedWithoutCopyBack(path: String, error: RendererError)
    /// The host vetoed the save; nothing was written.
    case cancelled
}
