import Foundation
import RendererProvider
import Testing
import TestSupport

/// Page editing through a session: bookmarks and the current page follow their pages, and
/// the host is told in order.
@Suite struct SessionPageTests {
    @Test func bookmarksAndTheCurrentPageFollowTheirPages() async throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("outline.pdf", backend: "mupdf", delegate: recorder)
        defer { copy.remove() }
        let second = try session.addBookmark(pageIndex: 1, title: "Second")
        let third = try session.addBookmark(pageIndex: 2, title: "Third")
        try session.goToPage(3)
        let start = recorder.calls.count

        #expect(try session.deletePages([2]) == PageEditReport(links: 1, outlineItems: 1, namedDestinations: 1))
        #expect(Array(recorder.calls[start...]) == ["bookmarksChanged 1", "currentPageChanged 3->2", "pagesChanged 3"])
        #expect(try session.bookmarks.map(\.id) == [second.id] && session.currentPageIndex == 2)
        #expect(!(try session.bookmarks.contains { $0.id == third.id }), "the bookmark went with its page")

        try session.movePage(from: 1, to: 0)
        #expect(try session.bookmarks.map(\.pageIndex) == [0] && session.currentPageIndex == 2)
        try session.insertBlankPage(at: 0, size: PageSize(width: 200, height: 200))
        #expect(try session.bookmarks.map(\.pageIndex) == [1] && session.currentPageIndex == 3 && session.pageCount == 4)
        let beforeRotation = recorder.calls.count
        try session.rotatePage(at: 3, by: 90)
        #expect(Array(recorder.calls[beforeRotation...]) == ["pagesChanged 4"])

        _ = try session.save()
        session.close()
        let text = try await Tool.run("pdftotext", ["-layout", copy.path, "-"]).text
            .split(separator: "\u{0C}", omittingEmptySubsequences: false).dropLast().map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(text == ["", "Outline page 2", "Outline page 1", "Outline page 4"])
    }

    @Test func pageEditingNeedsTheEditingSetting() throws {
        var settings = DocumentSettings()
        settings[.editing] = FeatureSetting(available: true, enabled: false)
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("outline.pdf", backend: "mupdf", settings: settings, delegate: recorder)
        defer { session.close(); copy.remove() }
        let count = recorder.calls.count
        let error = #expect(throws: RendererError.self) { try session.deletePages([0]) }
        #expect(error?.code == .notPermitted && error?.message.contains("editing") == true)
        #expect(try session.pageCount == 4 && recorder.calls.count == count)
    }
}
