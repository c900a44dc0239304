#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a host hears from a ``ReadingSession``, and what it decides. Every method has a
/// default that does nothing (or lets the session go on), so a host implements only what it
/// needs. The session calls these on the thread that called the session, synchronously and
/// in the order ``SessionEvent`` documents; a method may call back into the session.
public protocol ReadingSessionDelegate: AnyObject, Sendable {
    /// The document could not be opened; the session is closed.
    func session(_ session: ReadingSession, didFailToLoad error: RendererError)
    /// The page the session opened at was read; `clamped` says why it is not the one asked for.
    func session(_ session: ReadingSession, didLoadFirstPage pageIndex: Int, clamped: PageClamp?)
    /// The session is open and shows the document in `state`.
    func session(_ session: ReadingSession, didShow state: ViewingState)
    /// The reader's bookmarks, all of them, after a change: keep them.
    func session(_ session: ReadingSession, didChangeBookmarks bookmarks: [Bookmark])
    /// Annotations added, changed or removed, as the document holds them: keep them.
    func session(_ session: ReadingSession, didChangeAnnotations changes: AnnotationChanges)
    /// The document's metadata, all of it, after a change.
    func session(_ session: ReadingSession, didChangeMetadata metadata: DocumentMetadata)
    /// A file was embedded or removed: the document's attachments, all of them, now.
    func session(_ session: ReadingSession, didChangeAttachments attachments: [Attachment])
    /// The outline was written: all of it, now.
    func session(_ session: ReadingSession, didChangeOutline outline: [OutlineItem])
    /// Links were added to page `pageIndex` or removed from it: its links, all of them, now.
    func session(_ session: ReadingSession, didChangeLinks links: [Link], pageAt pageIndex: Int)
    /// Form fields' values changed: the fields that changed, as they are now (none after the
    /// form was flattened away).
    func session(_ session: ReadingSession, didChangeForm fields: [FormField])
    /// A signature was added and the file saved with it: the signed field, as it now reads.
    func session(_ session: ReadingSession, didSign field: SignatureField)
    /// Pages were inserted, deleted, moved, rotated or copied in; the document now has
    /// `pageCount` pages.
    func session(_ session: ReadingSession, didChangePages pageCount: Int)
    /// The current page changed.
    func session(_ session: ReadingSession, didChangeCurrentPageFrom oldIndex: Int, to newIndex: Int)
    /// Before a save: return `nil` to veto it, or the mode to save in (the default keeps `mode`).
    func session(_ session: ReadingSession, willSaveTo path: String, mode: SaveMode) -> SaveMode?
    /// The document was saved to `path`.
    func session(_ session: ReadingSession, didSaveTo path: String)
    /// A save failed; the file is as it was.
    func session(_ session: ReadingSession, didFailToSave error: RendererError)
    /// A save was vetoed; nothing was written.
    func sessionDidCancelSave(_ session: ReadingSession)
    /// Copy the saved internal file back to the original. The default copies it atomically
    /// (``CopyBackRequest/copy()``). The session has already checked that nobody else
    /// changed the original since it opened.
    func session(_ session: ReadingSession, copyBack request: CopyBackRequest) -> CopyBackAnswer
    /// The saved file was copied back to `path`.
    func session(_ session: ReadingSession, didCopyBackTo path: String)
    /// The copy-back failed or met a conflict; the saved file stays at the internal path.
    func session(_ session: ReadingSession, didFailToCopyBack error: RendererError)
    /// The session is about to close on this page.
    func session(_ session: ReadingSession, willCloseOnPage pageIndex: Int)
    /// The session closed: keep `state` to open the next session where the reader was.
    func session(_ session: ReadingSession, didCloseWith state: ViewingState)
    /// The document's settings expired at `expiryDate`: return true to open it anyway.
    func session(_ session: ReadingSession, shouldOpenExpiredDocument expiryDate: Date) -> Bool
}

extension ReadingSessionDelegate {
    /// Does nothing.
    public func session(_ session: ReadingSession, didFailToLoad error: RendererError) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didLoadFirstPage pageIndex: Int, clamped: PageClamp?) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didShow state: ViewingState) {}
    public func session(_ session: ReadingSession, didChangeBookmarks bookmarks: [Bookmark]) {}
    public func session(_ session: ReadingSession, didChangeAnnotations changes: AnnotationChanges) {}
    public func session(_ session: ReadingSession, didChangeMetadata metadata: DocumentMetadata) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didChangeAttachments attachments: [Attachment]) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didChangeOutline outline: [OutlineItem]) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didChangeLinks links: [Link], pageAt pageIndex: Int) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didChangeForm fields: [FormField]) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didSign field: SignatureField) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didChangePages pageCount: Int) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didChangeCurrentPageFrom oldIndex: Int, to newIndex: Int) {}
    public func session(_ session: ReadingSession, willSaveTo path: String, mode: SaveMode) -> SaveMode? { mode }
    /// Does nothing.
    public func session(_ session: ReadingSession, didSaveTo path: String) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didFailToSave error: RendererError) {}
    /// Does nothing.
    public func sessionDidCancelSave(_ session: ReadingSession) {}
    public func session(_ session: ReadingSession, copyBack request: CopyBackRequest) -> CopyBackAnswer {
        request.copyAndAnswer()
    }
    /// Does nothing.
    public func session(_ session: ReadingSession, didCopyBackTo path: String) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, didFailToCopyBack error: RendererError) {}
    /// Does nothing.
    public func session(_ session: ReadingSession, willCloseOnPage pageIndex: Int) {}
    public func session(_ session: ReadingSession, didCloseWith state: ViewingState) {}
    public func session(_ session: ReadingSession, shouldOpenExpiredDocument expiryDate: Date) -> Bool { false }
}
