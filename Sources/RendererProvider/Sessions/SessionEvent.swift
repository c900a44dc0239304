/// What changed in an annotation edit, with the values as the document holds them after
/// it, so that a host can keep them (as dictionaries, a property list, JSON) by identity.
public struct AnnotationChanges: Hashable, Sendable, Codable {
    /// The annotations added.
    public var added: [Annotation]
    /// The annotations changed, as they are now.
    public var modified: [Annotation]
    /// The annotations as they were before they were removed.
    public var removed: [Annotation]
    /// Whether the changes came from another reader, through the session's collaboration
    /// (``ReadingSession/applyRemoteChanges(_:)``), rather than from this reader.
    public var isRemote: Bool

    /// Changes as given.
    public init(added: [Annotation] = [], modified: [Annotation] = [], removed: [Annotation] = [], isRemote: Bool = false) {
        self.added = added
        self.modified = modified
        self.removed = removed
        self.isRemote = isRemote
    }

    /// Whether there are no changes.
    public var isEmpty: Bool { added.isEmpty && modified.isEmpty && removed.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case added, modified, removed, isRemote
    }

    /// Decodes changes; each list and `isRemote` may be left out.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            added: try c.decodeIfPresent([Annotation].self, forKey: .added) ?? [],
            modified: try c.decodeIfPresent([Annotation].self, forKey: .modified) ?? [],
            removed: try c.decodeIfPresent([Annotation].self, forKey: .removed) ?? [],
            isRemote: try c.decodeIfPresent(Bool.self, forKey: .isRemote) ?? false)
    }
}

/// Something that happened in a ``ReadingSession``. The session tells its delegate and every
/// ``ReadingSession/events()`` stream the same events, in this order of a session's life:
///
/// 1. ``loadFailed(_:)`` (and nothing after it), or ``firstPageLoaded(pageIndex:clamped:)``
///    then ``documentShown(_:)``;
/// 2. any number of ``bookmarksChanged(_:)``, ``annotationsChanged(_:)``,
///    ``metadataChanged(_:)``, ``attachmentsChanged(_:)``, ``outlineChanged(_:)``,
///    ``linksChanged(pageIndex:_:)``, ``formChanged(_:)``, ``pagesChanged(pageCount:)`` and
///    ``currentPageChanged(from:to:)``, each right after the
///    change it reports;
/// 3. for each save: ``willSave(path:mode:)``, then ``saveCancelled`` (the host vetoed it),
///    ``saveFailed(_:)`` or ``saved(path:)``; after a save over a file that requires copy-back,
///    ``copyBackRequested(_:)`` then ``copiedBack(path:)`` or ``copyBackFailed(_:)``;
/// 4. ``willClose(pageIndex:)`` then ``closed(_:)``, once, however often the session is closed.
public enum SessionEvent: Hashable, Sendable {
    /// The document could not be opened; the session is closed.
    case loadFailed(RendererError)
    /// The page the session opened at was read; `clamped` says why it is not the one asked for.
    case firstPageLoaded(pageIndex: Int, clamped: PageClamp?)
    /// The session is open and showing the document in this state.
    case documentShown(ViewingState)
    /// The reader's bookmarks, all of them, after a change.
    case bookmarksChanged([Bookmark])
    /// Annotations were added, changed or removed.
    case annotationsChanged(AnnotationChanges)
    /// The document's metadata, all of it, after a change.
    case metadataChanged(DocumentMetadata)
    /// A file was embedded in the document or removed from it: its attachments, all of them, now.
    case attachmentsChanged([Attachment])
    /// The outline was written: all of it, now.
    case outlineChanged([OutlineItem])
    /// Links were added to a page or removed from it: the page's links, all of them, now.
    case linksChanged(pageIndex: Int, [Link])
    /// Form fields' values changed: the fields that changed, as they are now (none after the
    /// form was flattened away).
    case formChanged([FormField])
    /// A signature was added and the session's file saved with it (``saved(path:)`` came
    /// first): the signed field as the file now reads it.
    case signed(SignatureField)
    /// Pages were inserted, deleted, moved, rotated or copied in; the document now has
    /// `pageCount` pages. Bookmarks and the current page that moved were told first.
    case pagesChanged(pageCount: Int)
    /// The current page changed.
    case currentPageChanged(from: Int, to: Int)
    /// A save is about to write `path` in `mode` (after the host's answer).
    case willSave(path: String, mode: SaveMode)
    /// The document was saved to `path`.
    case saved(path: String)
    /// The save failed; the file is as it was.
    case saveFailed(RendererError)
    /// The host vetoed the save; nothing was written.
    case saveCancelled
    /// The saved file is to be copied back to where it came from.
    case copyBackRequested(CopyBackRequest)
    /// The saved file was copied back to `path`.
    case copiedBack(path: String)
    /// The copy-back failed or met someone else's change (`conflict`); the internal file
    /// keeps the saved document, and the error says where it is.
    case copyBackFailed(RendererError)
    /// The session is about to close on this page.
    case willClose(pageIndex: Int)
    /// The session closed; this state reopens it where the reader was.
    case closed(ViewingState)
}
