import Foundation

/// What a host hears from a ``ReadingSession``, and what it decides. Every method has a
/// default that does nothing (or lets the session go on), so a host implements only what it
/// needs. The session calls these on the thread that called the session, synchronously and
/// in the order ``SessionEvent`` documents; a method may call back into the session.
public protocol ReadingSessionDelegate: AnyObject, Sendable {
    func session(_ session: ReadingSession, didFailToLoad error: RendererError)
    func session(_ session: ReadingSession, didLoadFirstPage pageIndex: Int, clamped: PageClamp?)
    func session(_ session: ReadingSession, didShow state: ViewingState)
    /// The reader's bookmarks, all of them, after a change: keep them.
    func session(_ session: ReadingSession, didChangeBookmarks bookmarks: [Bookmark])
    /// Annotations added, changed or removed, as the document holds them: keep them.
    func session(_ session: ReadingSession, didChangeAnnotations changes: AnnotationChanges)
    func session(_ session: ReadingSession, didChangeCurrentPageFrom oldIndex: Int, to newIndex: Int)
    /// Before a save: return `nil` to veto it, or the mode to save in (the default keeps `mode`).
    func session(_ session: ReadingSession, willSaveTo path: String, mode: SaveMode) -> SaveMode?
    func session(_ session: ReadingSession, didSaveTo path: String)
    func session(_ session: ReadingSession, didFailToSave error: RendererError)
    func sessionDidCancelSave(_ session: ReadingSession)
    /// Copy the saved internal file back to the original. The default copies it atomically
    /// (``CopyBackRequest/copy()``). The session has already checked that nobody else
    /// changed the original since it opened.
    func session(_ session: ReadingSession, copyBack request: CopyBackRequest) -> CopyBackAnswer
    func session(_ session: ReadingSession, didCopyBackTo path: String)
    func session(_ session: ReadingSession, didFailToCopyBack error: RendererError)
    func session(_ session: ReadingSession, willCloseOnPage pageIndex: Int)
    /// The session closed: keep `state` to open the next session where the reader was.
    func session(_ session: ReadingSession, didCloseWith state: ViewingState)
    /// The document's settings expired at `expiryDate`: return true to open it anyway.
    func session(_ session: ReadingSession, shouldOpenExpiredDocument expiryDate: Date) -> Bool
}

extension ReadingSessionDelegate {
    public func session(_ session: ReadingSession, didFailToLoad error: RendererError) {}
    public func session(_ session: ReadingSession, didLoadFirstPage pageIndex: Int, clamped: PageClamp?) {}
    public func session(_ session: ReadingSession, didShow state: ViewingState) {}
    public func session(_ session: ReadingSession, didChangeBookmarks bookmarks: [Bookmark]) {}
    public func session(_ session: ReadingSession, didChangeAnnotations changes: AnnotationChanges) {}
    public func session(_ session: ReadingSession, didChangeCurrentPageFrom oldIndex: Int, to newIndex: Int) {}
    public func session(_ session: ReadingSession, willSaveTo path: String, mode: SaveMode) -> SaveMode? { mode }
    public func session(_ session: ReadingSession, didSaveTo path: String) {}
    public func session(_ session: ReadingSession, didFailToSave error: RendererError) {}
    public func sessionDidCancelSave(_ session: ReadingSession) {}
    public func session(_ session: ReadingSession, copyBack request: CopyBackRequest) -> CopyBackAnswer {
        request.copyAndAnswer()
    }
    public func session(_ session: ReadingSession, didCopyBackTo path: String) {}
    public func session(_ session: ReadingSession, didFailToCopyBack error: RendererError) {}
    public func session(_ session: ReadingSession, willCloseOnPage pageIndex: Int) {}
    public func session(_ session: ReadingSession, didCloseWith state: ViewingState) {}
    public func session(_ session: ReadingSession, shouldOpenExpiredDocument expiryDate: Date) -> Bool { false }
}
