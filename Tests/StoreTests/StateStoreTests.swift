import Foundation
import RendererProvider
import RendererProviderStore
import Testing
import TestSupport

/// The SQLite store of a reader's local state, and content fingerprints, as an app uses them.
@Suite("Local state store")
struct StateStoreTests {
    static func store() throws -> (SQLiteStateStore, URL) {
        let directory = try Tool.temporaryDirectory()
        return (try SQLiteStateStore(path: directory.appendingPathComponent("deep/state.sqlite").path), directory)
    }

    @Test func bookmarksAreKeptPerDocumentInPageOrder() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = DocumentFingerprint.fileIdentifier("AA"), b = DocumentFingerprint.fileIdentifier("bb")
        let later = try store.add(Bookmark(pageIndex: 5, title: "Later", creationDate: Date(timeIntervalSince1970: 10)), for: a)
        let first = try store.add(Bookmark(pageIndex: 1, title: "First", creationDate: Date(timeIntervalSince1970: 20)), for: a)
        _ = try store.add(Bookmark(pageIndex: 0, title: "Other", creationDate: Date(timeIntervalSince1970: 30)), for: b)
        #expect(!later.id.isEmpty && later.id != first.id)
        #expect(try store.bookmarks(for: a).map(\.title) == ["First", "Later"])
        #expect(try store.bookmarks(for: DocumentFingerprint.fileIdentifier("aa")).count == 2, "identifiers are kept in lower case")
        try store.removeBookmark(id: first.id, for: a)
        #expect(try store.bookmarks(for: a).map(\.id) == [later.id])
        #expect((#expect(throws: RendererError.self) { try store.removeBookmark(id: later.id, for: b) })?.code == .invalidArgument)
    }

    @Test func viewingStatesAndLastPagesSurviveReopeningAndFollowAMovedDocument() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = DocumentFingerprint.contentHash("01", algorithm: "sha256"), new = DocumentFingerprint.contentHash("02", algorithm: "sha256")
        #expect(try store.viewingState(for: old) == nil)
        let state = ViewingState(pageIndex: 7, zoom: 1.25, scrollOffset: PagePoint(x: 3, y: 400))
        try store.setViewingState(state, for: old)
        _ = try store.add(Bookmark(pageIndex: 2, title: "Kept"), for: old)
        let reopened = try SQLiteStateStore(path: directory.appendingPathComponent("deep/state.sqlite").path)
        #expect(try reopened.viewingState(for: old) == state)
        #expect(try reopened.lastViewedPage(for: old) == 7)
        try reopened.moveDocument(from: old, to: new)
        #expect(try reopened.viewingState(for: new) == state && reopened.viewingState(for: old) == nil)
        #expect(try reopened.bookmarks(for: new).map(\.title) == ["Kept"])
    }

    @Test func aStoreThatCannotBeOpenedIsAnIOFailure() throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("not a database".utf8).write(to: directory.appendingPathComponent("bad.sqlite"))
        #expect((#expect(throws: RendererError.self) { _ = try SQLiteStateStore(path: directory.appendingPathComponent("bad.sqlite").path) })?.code == .ioFailure)
        #expect(SQLiteStateStore.defaultPath(application: "reader", environment: ["XDG_DATA_HOME": "/x/data"]) == "/x/data/reader/bookmarks.sqlite")
    }

    /// Fingerprints: the PDF /ID where there is one (qpdf's JSON is the witness), else the
    /// SHA-256 of the bytes (sha256sum is the witness), on both engines.
    @Test(arguments: Fixtures.backendIDs)
    func fingerprintsAreTheFileIdentifierElseTheContentHash(backend: String) async throws {
        let withID = Fixtures.path("encrypted.pdf")
        let document = try Fixtures.open("encrypted.pdf", backend: backend, password: "user-secret")
        let qpdf = try await Tool.run("qpdf", ["--json", "--json-key=qpdf", "--json-object=trailer", "--password=user-secret", withID])
        let json = try JSONSerialization.jsonObject(with: qpdf.stdout) as? [String: Any]
        let objects = (json?["qpdf"] as? [[String: Any]])?.last
        let trailer = (objects?["trailer"] as? [String: Any])?["value"] as? [String: Any]
        let first = String(((trailer?["/ID"] as? [String])?.first ?? "").dropFirst(2))  // "b:" then the bytes in hexadecimal
        #expect(!first.isEmpty)
        #expect(try document.fingerprint(path: withID) == .fileIdentifier(first))

        let plain = Fixtures.path("text.pdf")
        let sum = try await Tool.run("sha256sum", [plain]).text.split(separator: " ").first.map(String.init) ?? ""
        #expect(try Fixtures.open("text.pdf", backend: backend).fingerprint(path: plain) == .contentHash(sum, algorithm: "sha256"))
    }
}
