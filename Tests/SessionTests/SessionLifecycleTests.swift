import Foundation
import RendererProvider
import Testing
import TestSupport

/// A session's life on both engines: the order of its events for the delegate and for an
/// event stream, the page it opens at, a closed session, and a load that fails.
@Suite("Session lifecycle, on every backend")
struct SessionLifecycleTests {
    static let square = Annotation(kind: .square, pageIndex: 1, rect: PageRect(x: 72, y: 72, width: 100, height: 50), contents: "note")

    @Test(arguments: Fixtures.backendIDs)
    func openEditSaveCloseTellsEveryEventInOrder(backend: String) async throws {
        let copy = try WorkingCopy("text.pdf")
        defer { copy.remove() }
        let recorder = SessionRecorder()
        let session = ReadingSession(
            file: FileState(internalPath: copy.path), registry: Fixtures.registry,
            configuration: SessionConfiguration(pageIndex: 1, renderer: .id(backend)), delegate: recorder)
        let stream = session.events()
        try session.open()
        #expect(try session.currentPageIndex == 1)
        let bookmark = try session.addBookmark(pageIndex: 2, title: "Later")
        var added = try session.addAnnotation(Self.square)
        added.contents = "changed"
        try session.updateAnnotation(added)
        try session.goToPage(2)
        try session.goToPage(2)  // the same page again: no event
        try session.removeBookmark(id: bookmark.id)
        #expect(try session.save() == .saved(path: copy.path))
        try session.removeAnnotation(withID: added.id)
        session.close()

        #expect(recorder.calls == [
            "firstPageLoaded 1", "documentShown 1", "bookmarksChanged 1", "annotationsChanged +1 ~0 -0",
            "annotationsChanged +0 ~1 -0", "currentPageChanged 1->2", "bookmarksChanged 0", "willSave", "saved",
            "annotationsChanged +0 ~0 -1", "willClose 2", "closed 2",
        ])
        let events = await collect(stream)
        #expect(events.map(\.name) == [
            "firstPageLoaded", "documentShown", "bookmarksChanged", "annotationsChanged", "annotationsChanged",
            "currentPageChanged", "bookmarksChanged", "willSave", "saved", "annotationsChanged", "willClose", "closed",
        ])
        #expect(events.last == .closed(ViewingState(pageIndex: 2)))
        // The save wrote the changed annotation: a new document holds it.
        let saved = try await Fixtures.registry.open(.file(copy.path), renderer: .id(backend)).annotations()
        #expect(saved.map(\.id) == [added.id] && saved.first?.contents == "changed")
    }

    @Test(arguments: Fixtures.backendIDs)
    func aClosedSessionRefusesEverythingAndClosesOnce(backend: String) async throws {
        let recorder = SessionRecorder()
        let session = ReadingSession(
            file: FileState(internalPath: Fixtures.path("text.pdf")), registry: Fixtures.registry,
            configuration: SessionConfiguration(renderer: .id(backend)), delegate: recorder)
        #expect((#expect(throws: RendererError.self) { try session.currentPageIndex })?.code == .sessionClosed)
        try session.open()
        #expect((#expect(throws: RendererError.self) { try session.open() })?.code == .sessionClosed)
        session.close()
        session.close()
        #expect(session.isClosed)
        #expect(recorder.calls == ["firstPageLoaded 0", "documentShown 0", "willClose 0", "closed 0"])
        let refused: [() throws -> Void] = [
            { _ = try session.render(pageAt: 0) }, { _ = try session.text(pageAt: 0) }, { try session.goToPage(1) },
            { _ = try session.addBookmark(pageIndex: 0, title: "x") }, { _ = try session.addAnnotation(Self.square) },
            { _ = try session.save() }, { _ = try session.annotations() }, { try session.check(.save) },
        ]
        for call in refused {
            #expect((#expect(throws: RendererError.self) { try call() })?.code == .sessionClosed)
        }
        #expect(recorder.calls.count == 4, "nothing is told after the close")
        #expect(await collect(session.events()).isEmpty, "a stream asked for after the close ends at once")
    }

    @Test(arguments: Fixtures.backendIDs)
    func aPagePastTheDocumentIsClampedWithTheReason(backend: String) async throws {
        let recorder = SessionRecorder()
        let file = FileState(internalPath: Fixtures.path("text.pdf"), viewingState: ViewingState(pageIndex: 40, zoom: 2))
        let session = ReadingSession(file: file, registry: Fixtures.registry, configuration: SessionConfiguration(renderer: .id(backend)), delegate: recorder)
        let stream = session.events()
        try session.open()
        #expect(try session.viewingState == ViewingState(pageIndex: 2, zoom: 2))
        #expect(recorder.calls.prefix(2) == ["firstPageLoaded 2 clamped from 40", "documentShown 2"])
        session.close()
        let events = await collect(stream)
        guard case .firstPageLoaded(2, let clamped?) = events.first else {
            Issue.record("no clamped first page: \(events)")
            return
        }
        #expect(clamped.reason == "page 41 was asked for, and the document has 3 pages")
    }

    @Test(arguments: Fixtures.backendIDs)
    func aViewingStatePastTheDocumentOrWithoutZoomIsRefused(backend: String) throws {
        let session = ReadingSession(
            file: FileState(internalPath: Fixtures.path("text.pdf")), registry: Fixtures.registry,
            configuration: SessionConfiguration(renderer: .id(backend)))
        try session.open()
        defer { session.close() }
        #expect((#expect(throws: RendererError.self) { try session.goToPage(3) })?.code == .pageOutOfRange)
        #expect((#expect(throws: RendererError.self) { try session.setViewingState(ViewingState(pageIndex: 1, zoom: 0)) })?.code == .invalidArgument)
        #expect(try session.viewingState == ViewingState(), "a refused state changes nothing")
        let state = ViewingState(pageIndex: 1, zoom: 1.5, scrollOffset: PagePoint(x: 10, y: 200))
        try session.setViewingState(state)
        let coded = try JSONDecoder().decode(ViewingState.self, from: JSONEncoder().encode(try session.viewingState))
        #expect(coded == state)
    }

    @Test(arguments: Fixtures.backendIDs)
    func aFailedLoadIsToldWithItsErrorAndClosesTheSession(backend: String) async throws {
        let recorder = SessionRecorder()
        let session = ReadingSession(
            file: FileState(internalPath: Fixtures.path("encrypted.pdf")), registry: Fixtures.registry,
            configuration: SessionConfiguration(password: "wrong", renderer: .id(backend)), delegate: recorder)
        let stream = session.events()
        #expect((#expect(throws: RendererError.self) { try session.open() })?.code == .wrongPassword)
        #expect(recorder.calls == ["loadFailed wrong-password"])
        #expect(session.isClosed)
        #expect(await collect(stream).map(\.name) == ["loadFailed"])
    }

    /// The host's bookmarks and annotations: annotations the file lacks are added, one it
    /// holds is not added twice, and after edits the values the host keeps equal what the
    /// document lists.
    @Test(arguments: Fixtures.backendIDs)
    func hostBookmarksAndAnnotationsComeBackAsTheDocumentHoldsThem(backend: String) throws {
        let copy = try WorkingCopy("annotations.pdf")
        defer { copy.remove() }
        let held = try Fixtures.registry.open(.file(copy.path), renderer: .id(backend)).annotations()
        #expect(!held.isEmpty)
        var own = Self.square
        own.id = "host-note-1"
        own.pageIndex = 0
        let recorder = SessionRecorder()
        let configuration = SessionConfiguration(
            renderer: .id(backend), bookmarks: [Bookmark(id: "b1", pageIndex: 0, title: "Start")], annotations: [held[0], own])
        let session = ReadingSession(file: FileState(internalPath: copy.path), registry: Fixtures.registry, configuration: configuration, delegate: recorder)
        try session.open()
        defer { session.close() }
        let listed = try session.annotations()
        #expect(listed.count == held.count + 1)
        #expect(listed.filter { $0.id == held[0].id }.count == 1)
        #expect(listed.contains { $0.id == "host-note-1" && $0.contents == "note" })
        #expect(try session.bookmarks.map(\.id) == ["b1"])

        var changed = try session.annotations().first { $0.id == "host-note-1" }!
        changed.contents = "edited"
        try session.updateAnnotation(changed)
        try session.addAnnotation(Annotation(id: "host-note-2", kind: .circle, pageIndex: 0, rect: PageRect(x: 300, y: 300, width: 40, height: 40)))
        try session.addBookmark(pageIndex: 0, title: "Second")
        let document = try session.annotations()
        for (id, kept) in recorder.annotations {
            #expect(document.first { $0.id == id } == kept, "the host's copy of \(id) equals the document's")
        }
        #expect(Set(recorder.annotations.keys) == ["host-note-1", "host-note-2"])
        #expect(recorder.bookmarks.map(\.title) == ["Start", "Second"])
        // What the host keeps survives a trip through a property list, as a host stores it.
        let plist = try Annotation.propertyListData(Array(recorder.annotations.values))
        #expect(Set(try Annotation.annotations(fromPropertyList: plist)) == Set(recorder.annotations.values))
    }
}
