import Foundation
import HostCommands
import RendererProvider
import RendererProviderStore

/// The delegate of `hostapp open`'s session: prints each event as a JSON line on standard
/// output as it happens, and keeps the reader's bookmarks and closing viewing state in the
/// bookmark store, by the document's fingerprint.
final class SessionPrinter: ReadingSessionDelegate, @unchecked Sendable {
    // @unchecked Sendable: the session calls its delegate on the thread that called it, and
    // `hostapp open` calls the session from one thread only; `storeIDs` is touched there alone.
    private let store: SQLiteStateStore
    /// The document's fingerprint; a save over a document without a PDF `/ID` changes it.
    private var fingerprint: DocumentFingerprint
    /// The file the session saves over, and the file system it is in.
    private let file: String
    private let fileSystem: any FileSystem
    /// The bookmarks the session starts with, as stored.
    let bookmarks: [Bookmark]
    /// The store's id of each bookmark, by the session's id.
    private var storeIDs: [String: String]

    init(store: SQLiteStateStore, fingerprint: DocumentFingerprint, bookmarks: [Bookmark], file: String, fileSystem: any FileSystem) {
        self.store = store
        self.fingerprint = fingerprint
        self.file = file
        self.fileSystem = fileSystem
        self.bookmarks = bookmarks
        storeIDs = Dictionary(uniqueKeysWithValues: bookmarks.map { ($0.id, $0.id) })
    }

    func session(_ session: ReadingSession, didFailToLoad error: RendererError) {
        print(["event": "loadFailed", "error": Self.describe(error)])
    }

    func session(_ session: ReadingSession, didLoadFirstPage pageIndex: Int, clamped: PageClamp?) {
        var line: [String: Any] = ["event": "firstPageLoaded", "page": pageIndex + 1]
        if let clamped { line["clamped"] = ["requested": clamped.requested + 1, "reason": clamped.reason] }
        print(line)
    }

    func session(_ session: ReadingSession, didShow state: ViewingState) {
        print(["event": "documentShown", "viewingState": Self.describe(state)])
    }

    func session(_ session: ReadingSession, didChangeBookmarks bookmarks: [Bookmark]) {
        keep(bookmarks)
        print(["event": "bookmarksChanged", "bookmarks": bookmarks.map { ["id": storeIDs[$0.id] ?? $0.id, "page": $0.pageIndex + 1, "title": $0.title] }])
    }

    func session(_ session: ReadingSession, didChangeAnnotations changes: AnnotationChanges) {
        func json(_ annotations: [Annotation]) -> Any {
            (try? JSONSerialization.jsonObject(with: Annotation.jsonData(annotations))) ?? []
        }
        print(["event": "annotationsChanged", "added": json(changes.added), "modified": json(changes.modified), "removed": json(changes.removed)])
    }

    func session(_ session: ReadingSession, didChangeMetadata metadata: DocumentMetadata) {
        print(["event": "metadataChanged", "metadata": (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(metadata))) ?? [:]])
    }

    func session(_ session: ReadingSession, didChangePages pageCount: Int) {
        print(["event": "pagesChanged", "pageCount": pageCount])
    }

    func session(_ session: ReadingSession, didChangeForm fields: [FormField]) {
        print(["event": "formChanged", "fields": fields.map { ["name": $0.name, "values": $0.values] }])
    }

    func session(_ session: ReadingSession, didChangeCurrentPageFrom oldIndex: Int, to newIndex: Int) {
        print(["event": "currentPageChanged", "from": oldIndex + 1, "to": newIndex + 1])
    }

    func session(_ session: ReadingSession, willSaveTo path: String, mode: SaveMode) -> SaveMode? {
        print(["event": "willSave", "path": path, "mode": mode.rawValue])
        return mode
    }

    /// After a save over the session's file, what was kept for the document follows it to
    /// its new fingerprint, if the save changed it.
    func session(_ session: ReadingSession, didSaveTo path: String) {
        print(["event": "saved", "path": path])
        guard path == session.file.internalPath else { return }
        do {
            let saved = try DocumentFingerprint.of(session.info(), path: file, in: fileSystem)
            try store.moveDocument(from: fingerprint, to: saved)
            fingerprint = saved
        } catch let error as RendererError {
            printError(error)
        } catch {}
    }
    func session(_ session: ReadingSession, didFailToSave error: RendererError) { print(["event": "saveFailed", "error": Self.describe(error)]) }
    func sessionDidCancelSave(_ session: ReadingSession) { print(["event": "saveCancelled"]) }
    func session(_ session: ReadingSession, willCloseOnPage pageIndex: Int) { print(["event": "willClose", "page": pageIndex + 1]) }

    func session(_ session: ReadingSession, didCloseWith state: ViewingState) {
        do {
            try store.setViewingState(state, for: fingerprint)
        } catch let error as RendererError {
            printError(error)
        } catch {}
        print(["event": "closed", "viewingState": Self.describe(state)])
    }

    /// A command's result line.
    func printResult(_ line: [String: Any]) { print(line) }

    /// A failed command's line.
    func printError(_ error: RendererError) { print(["error": Self.describe(error)]) }

    /// Brings the store to `bookmarks`: adds the new ones, removes the ones gone.
    private func keep(_ bookmarks: [Bookmark]) {
        do {
            let current = Set(bookmarks.map(\.id))
            for (sessionID, storeID) in storeIDs where !current.contains(sessionID) {
                try store.removeBookmark(id: storeID, for: fingerprint)
                storeIDs[sessionID] = nil
            }
            for bookmark in bookmarks where storeIDs[bookmark.id] == nil {
                storeIDs[bookmark.id] = try store.add(bookmark, for: fingerprint).id
            }
        } catch let error as RendererError {
            printError(error)
        } catch {}
    }

    private func print(_ line: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    private static func describe(_ state: ViewingState) -> [String: Any] {
        ["page": state.pageIndex + 1, "zoom": state.zoom, "scrollX": state.scrollOffset.x, "scrollY": state.scrollOffset.y]
    }

    private static func describe(_ error: RendererError) -> [String: Any] {
        ["code": error.code.rawValue, "message": error.description]
    }
}
