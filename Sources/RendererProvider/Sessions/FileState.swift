/// The file a session works on, and how it relates to where the reader's document lives.
///
/// A host that keeps documents somewhere the engines should not write (a synced folder, a
/// download, a share) copies the original to an internal path, opens the session there with
/// ``requiresCopyBack`` set, and is asked to copy the internal file back after each save.
public struct FileState: Hashable, Sendable, Codable {
    /// The path of the file the session opens and saves, in the session's file system
    /// (``SessionConfiguration/fileSystem``); an absolute path on the local disk.
    public var internalPath: String
    /// How the document is named to people (a title, or the original's path).
    public var displayPath: String
    /// The document's content type.
    public var contentType: ContentType
    /// True when the session must not save over ``internalPath``; saving elsewhere is allowed.
    public var isReadOnly: Bool
    /// Where the document came from, in the same file system, and where a save is copied
    /// back when ``requiresCopyBack`` is set.
    public var originalPath: String?
    /// True when each save is followed by a copy back to ``originalPath``.
    public var requiresCopyBack: Bool
    /// Where to open: the viewing state a previous session closed with, if any.
    public var viewingState: ViewingState?

    /// A file state for `internalPath`. `requiresCopyBack` needs an `originalPath`; the
    /// session refuses to open without one.
    public init(
        internalPath: String, displayPath: String? = nil, contentType: ContentType = .pdf, isReadOnly: Bool = false,
        originalPath: String? = nil, requiresCopyBack: Bool = false, viewingState: ViewingState? = nil
    ) {
        self.internalPath = internalPath
        self.displayPath = displayPath ?? originalPath ?? internalPath
        self.contentType = contentType
        self.isReadOnly = isReadOnly
        self.originalPath = originalPath
        self.requiresCopyBack = requiresCopyBack
        self.viewingState = viewingState
    }
}
