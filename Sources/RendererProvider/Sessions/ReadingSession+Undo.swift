#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A change the reader made through a session, which ``ReadingSession/undo()`` takes back and
/// ``ReadingSession/redo()`` makes again, each through the session's own calls.
enum SessionEdit {
    /// Annotations added, a thread's root first.
    case addedAnnotations([Annotation])
    case updatedAnnotation(before: Annotation, after: Annotation)
    /// A thread removed, its root first.
    case removedAnnotations([Annotation])
    /// An image stamp added, with its picture.
    case addedImageStamp(Annotation, StampImage)
    /// The image stamp `addedImageStamp` put in, taken out again.
    case removedImageStamp(Annotation, StampImage)
    /// Fields' values before and after one fill or reset, by field name.
    case filledForm(before: [String: [String]], after: [String: [String]])
    case rotatedPage(index: Int, before: PageRotation, after: PageRotation)
    case movedPage(from: Int, to: Int)
    case insertedBlankPage(index: Int, size: PageSize)
    /// The blank page `insertedBlankPage` put in, taken out again.
    case removedBlankPage(index: Int, size: PageSize)
    /// The pages deleted (ascending) and the document as it was before, to copy them back from.
    case deletedPages([Int], before: Data)
    /// The pages `deletedPages` took out, copied back into their places.
    case restoredPages([Int], before: Data)
    /// The outline before and after one edit, as read back.
    case changedOutline(before: [OutlineItem], after: [OutlineItem])
    /// Links added to the page at `pageIndex`.
    case addedLinks([Link], pageIndex: Int)
    /// Links removed from the page at `pageIndex`: those the API reads, which are those
    /// undo puts back.
    case removedLinks([Link], pageIndex: Int)

    /// The bytes the edit keeps beyond its own facts: the copy of the document that page
    /// deletions keep, an image stamp's picture.
    var bytes: Int {
        switch self {
        case .deletedPages(_, let before), .restoredPages(_, let before): before.count
        case .addedImageStamp(_, let image), .removedImageStamp(_, let image): image.rgb.count + (image.alpha?.count ?? 0)
        default: 0
        }
    }

    /// The edit that takes this one back.
    var inverse: SessionEdit {
        switch self {
        case .addedAnnotations(let annotations): .removedAnnotations(annotations)
        case .updatedAnnotation(let before, let after): .updatedAnnotation(before: after, after: before)
        case .removedAnnotations(let annotations): .addedAnnotations(annotations)
        case .addedImageStamp(let stamp, let image): .removedImageStamp(stamp, image)
        case .removedImageStamp(let stamp, let image): .addedImageStamp(stamp, image)
        case .filledForm(let before, let after): .filledForm(before: after, after: before)
        case .rotatedPage(let index, let before, let after): .rotatedPage(index: index, before: after, after: before)
        case .movedPage(let from, let to): .movedPage(from: to, to: from)
        case .insertedBlankPage(let index, let size): .removedBlankPage(index: index, size: size)
        case .removedBlankPage(let index, let size): .insertedBlankPage(index: index, size: size)
        case .deletedPages(let indices, let before): .restoredPages(indices, before: before)
        case .restoredPages(let indices, let before): .deletedPages(indices, before: before)
        case .changedOutline(let before, let after): .changedOutline(before: after, after: before)
        case .addedLinks(let links, let page): .removedLinks(links, pageIndex: page)
        case .removedLinks(let links, let page): .addedLinks(links, pageIndex: page)
        }
    }
}

/// Undo and redo of the reader's edits through the session.
extension ReadingSession {
    /// Whether ``undo()`` has an edit to take back.
    public var canUndo: Bool { withState { !$0.undoStack.isEmpty } }
    /// Whether ``redo()`` has an edit to make again.
    public var canRedo: Bool { withState { !$0.redoStack.isEmpty } }

    /// Takes back the reader's last edit of annotations, form values, pages, the outline or links made through
    /// this session (at most ``SessionConfiguration/undoLimit`` are kept), and returns
    /// whether there was one. The edit is undone through the session's own calls, checked and
    /// told as any change is: the settings and permissions in force now must allow it, and in
    /// collaboration mode it is a new change by the same reader, refused as any other would
    /// be. An edit that cannot be taken back (its annotation has gone, the settings now
    /// refuse it) throws and leaves the history without it. Metadata, attachments, redaction
    /// and flattening are not undone; a new edit empties what ``redo()`` would make again.
    @discardableResult
    public func undo() throws -> Bool {
        try replaying(from: \.undoStack, to: \.redoStack) { $0.inverse }
    }

    /// Makes again the edit ``undo()`` last took back, and returns whether there was one;
    /// it throws, and is forgotten, as ``undo()`` says.
    @discardableResult
    public func redo() throws -> Bool {
        try replaying(from: \.redoStack, to: \.undoStack) { $0 }
    }

    /// Keeps `edit` as the reader's last, unless it is an undo or redo being made, forgetting
    /// the oldest beyond the configuration's limits, and what redo would make again.
    func recorded(_ edit: SessionEdit, in state: State) {
        guard !state.isReplaying else { return }
        state.undoStack.append(edit)
        state.redoStack.removeAll()
        while state.undoStack.count > max(0, configuration.undoLimit) || state.undoStack.map(\.bytes).reduce(0, +) > configuration.undoByteLimit {
            state.undoStack.removeFirst()
        }
    }

    /// Forgets every edit: after a change that undo cannot take back and that moves what the
    /// edits name (pages copied in, a form flattened, redactions applied).
    func forgetEdits(in state: State) {
        guard !state.isReplaying else { return }
        state.undoStack.removeAll()
        state.redoStack.removeAll()
    }

    /// Takes the last edit of `source`, makes what `step` gives for it, and keeps the edit on
    /// `target`; all under the session's lock, so that no other edit comes between.
    private func replaying(
        from source: ReferenceWritableKeyPath<State, [SessionEdit]>, to target: ReferenceWritableKeyPath<State, [SessionEdit]>,
        _ step: (SessionEdit) -> SessionEdit
    ) throws -> Bool {
        try withDocument { _, state in
            guard let edit = state[keyPath: source].popLast() else { return false }
            state.isReplaying = true
            defer { state.isReplaying = false }
            try make(step(edit))
            state[keyPath: target].append(edit)
            return true
        }
    }

    /// Makes `edit` through the session's calls.
    private func make(_ edit: SessionEdit) throws {
        switch edit {
        case .addedAnnotations(let annotations):
            for annotation in annotations.rootsFirst() { try addAnnotation(annotation) }
        case .removedAnnotations(let annotations):
            // The root, and with it its replies.
            if let root = annotations.first { try removeAnnotation(withID: root.id) }
        case .addedImageStamp(let stamp, let image):
            try addImageStamp(stamp, image: image)
        case .removedImageStamp(let stamp, _):
            try removeAnnotation(withID: stamp.id)
        case .updatedAnnotation(_, var after):
            // Where the annotation is now: a page edit may have moved it.
            after.pageIndex = try annotation(withID: after.id).pageIndex
            try updateAnnotation(after)
        case .filledForm(_, let after):
            try fillForm(after)
        case .rotatedPage(let index, _, let after):
            try rotatePage(at: index, to: after)
        case .movedPage(let from, let to):
            try movePage(from: from, to: to)
        case .insertedBlankPage(let index, let size):
            try insertBlankPage(at: index, size: size)
        case .removedBlankPage(let index, _):
            try deletePages([index])
        case .deletedPages(let indices, _):
            try deletePages(indices)
        case .restoredPages(let indices, let before):
            // Each page copied back from the document as it was, into its place.
            for index in indices { try insertPages(from: .memory(before), password: configuration.password, pages: [index], at: index) }
        case .changedOutline(_, let after):
            try setOutline(after)
        case .addedLinks(let links, let page):
            for link in links { try addLink(link, pageAt: page) }
        case .removedLinks(let links, let page):
            // By area: links over the same area go together, as they came.
            var areas: [PageRect] = []
            for link in links where !areas.contains(link.area) { areas.append(link.area) }
            for area in areas { try removeLinks(in: area, pageAt: page) }
        }
    }
}
