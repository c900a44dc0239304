import Foundation
import RendererProvider
import TestSupport

/// A delegate that writes down every call in order, as a short line each, and answers the
/// session's questions as the test tells it to.
final class SessionRecorder: ReadingSessionDelegate, @unchecked Sendable {
    // @unchecked Sendable: every stored property is read and written under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    private var keptBookmarks: [Bookmark] = []
    private var keptAnnotations: [String: Annotation] = [:]
    private var keptState: ViewingState?
    private var saveAnswer: SaveMode?? = .none
    private var copyBackAnswer: CopyBackAnswer?
    private var allowExpired = false

    /// What the recorder answers when asked about a save: `.some(nil)` vetoes it.
    func answerSaves(with mode: SaveMode?) { locked { saveAnswer = .some(mode) } }
    func answerCopyBack(with answer: CopyBackAnswer) { locked { copyBackAnswer = answer } }
    func allowExpiredDocuments() { locked { allowExpired = true } }

    var calls: [String] { locked { lines } }
    /// The bookmarks as the host keeps them, from `didChangeBookmarks`.
    var bookmarks: [Bookmark] { locked { keptBookmarks } }
    /// The annotations as the host keeps them, by identity, from `didChangeAnnotations`.
    var annotations: [String: Annotation] { locked { keptAnnotations } }
    var closedState: ViewingState? { locked { keptState } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private func record(_ line: String) { locked { lines.append(line) } }

    func session(_ session: ReadingSession, didFailToLoad error: RendererError) { record("loadFailed \(error.code)") }
    func session(_ session: ReadingSession, didLoadFirstPage pageIndex: Int, clamped: PageClamp?) {
        record("firstPageLoaded \(pageIndex)\(clamped.map { " clamped from \($0.requested)" } ?? "")")
    }
    func session(_ session: ReadingSession, didShow state: ViewingState) { record("documentShown \(state.pageIndex)") }
    func session(_ session: ReadingSession, didChangeBookmarks bookmarks: [Bookmark]) {
        locked { keptBookmarks = bookmarks }
        record("bookmarksChanged \(bookmarks.count)")
    }
    func session(_ session: ReadingSession, didChangeAnnotations changes: AnnotationChanges) {
        locked {
            for annotation in changes.added + changes.modified { keptAnnotations[annotation.id] = annotation }
            for annotation in changes.removed { keptAnnotations[annotation.id] = nil }
        }
        record("annotationsChanged +\(changes.added.count) ~\(changes.modified.count) -\(changes.removed.count)")
    }
    func session(_ session: ReadingSession, didChangeMetadata metadata: DocumentMetadata) {
        record("metadataChanged \(metadata.title ?? "-")")
    }
    func session(_ session: ReadingSession, didChangeAttachments attachments: [Attachment]) {
        record("attachmentsChanged " + attachments.map(\.name).joined(separator: ","))
    }
    func session(_ session: ReadingSession, didChangeOutline outline: [OutlineItem]) {
        record("outlineChanged " + outline.map(\.title).joined(separator: ","))
    }
    func session(_ session: ReadingSession, didChangeLinks links: [Link], pageAt pageIndex: Int) {
        record("linksChanged \(pageIndex) \(links.count)")
    }
    func session(_ session: ReadingSession, didChangePages pageCount: Int) {
        record("pagesChanged \(pageCount)")
    }
    func session(_ session: ReadingSession, didChangeForm fields: [FormField]) {
        record("formChanged \(fields.map(\.name).joined(separator: ","))")
    }
    func session(_ session: ReadingSession, didSign field: SignatureField) {
        record("signed \(field.name) \(field.signerName ?? "-")")
    }
    func session(_ session: ReadingSession, didChangeCurrentPageFrom oldIndex: Int, to newIndex: Int) {
        record("currentPageChanged \(oldIndex)->\(newIndex)")
    }
    func session(_ session: ReadingSession, willSaveTo path: String, mode: SaveMode) -> SaveMode? {
        record("willSave")
        return locked { saveAnswer } ?? mode
    }
    func session(_ session: ReadingSession, didSaveTo path: String) { record("saved") }
    func session(_ session: ReadingSession, didFailToSave error: RendererError) { record("saveFailed \(error.code)") }
    func sessionDidCancelSave(_ session: ReadingSession) { record("saveCancelled") }
    func session(_ session: ReadingSession, copyBack request: CopyBackRequest) -> CopyBackAnswer {
        record("copyBack")
        return locked { copyBackAnswer } ?? request.copyAndAnswer()
    }
    func session(_ session: ReadingSession, didCopyBackTo path: String) { record("copiedBack") }
    func session(_ session: ReadingSession, didFailToCopyBack error: RendererError) { record("copyBackFailed \(error.code)") }
    func session(_ session: ReadingSession, willCloseOnPage pageIndex: Int) { record("willClose \(pageIndex)") }
    func session(_ session: ReadingSession, didCloseWith state: ViewingState) {
        locked { keptState = state }
        record("closed \(state.pageIndex)")
    }
    func session(_ session: ReadingSession, shouldOpenExpiredDocument expiryDate: Date) -> Bool {
        record("shouldOpenExpired")
        return locked { allowExpired }
    }
}

/// A fixture copied into a new temporary directory, so that a session may save over it.
struct WorkingCopy {
    let directory: URL
    let path: String

    init(_ fixture: String) throws {
        directory = try Tool.temporaryDirectory()
        path = directory.appendingPathComponent(fixture).path
        try FileManager.default.copyItem(atPath: Fixtures.path(fixture), toPath: path)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

extension SessionEvent {
    /// The event's name, as the order tests list them.
    var name: String {
        switch self {
        case .loadFailed: "loadFailed"
        case .firstPageLoaded: "firstPageLoaded"
        case .documentShown: "documentShown"
        case .bookmarksChanged: "bookmarksChanged"
        case .annotationsChanged: "annotationsChanged"
        case .metadataChanged: "metadataChanged"
        case .attachmentsChanged: "attachmentsChanged"
        case .outlineChanged: "outlineChanged"
        case .linksChanged: "linksChanged"
        case .formChanged: "formChanged"
        case .pagesChanged: "pagesChanged"
        case .signed: "signed"
        case .currentPageChanged: "currentPageChanged"
        case .willSave: "willSave"
        case .saved: "saved"
        case .saveFailed: "saveFailed"
        case .saveCancelled: "saveCancelled"
        case .copyBackRequested: "copyBackRequested"
        case .copiedBack: "copiedBack"
        case .copyBackFailed: "copyBackFailed"
        case .willClose: "willClose"
        case .closed: "closed"
        }
    }
}

/// Collects a stream's events until it ends.
func collect(_ stream: AsyncStream<SessionEvent>) async -> [SessionEvent] {
    var events: [SessionEvent] = []
    for await event in stream { events.append(event) }
    return events
}
