import Foundation
import RendererProvider
import Testing
import TestSupport

/// Redaction through a session: the host is told of the mark and of its removal when applied,
/// and the saved file no longer holds what was under it.
@Suite struct SessionRedactionTests {
    @Test func marksAndTheirApplicationAreTold() async throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("text.pdf", backend: "mupdf", delegate: recorder)
        defer { copy.remove() }
        let words = try #require(try Fixtures.open("text.pdf", backend: "mupdf").search("lazy dog", pageAt: 0).first).bounds
        let mark = try session.markRedaction(PageRect(x: words.origin.x + 1, y: words.origin.y + 1, width: words.size.width - 2, height: words.size.height - 2), onPageAt: 0)
        #expect(recorder.calls.last == "annotationsChanged +1 ~0 -0" && recorder.annotations[mark.id]?.kind == .redact)
        #expect(try session.applyRedactions() == [0])
        #expect(recorder.calls.last == "annotationsChanged +0 ~0 -1" && recorder.annotations.isEmpty)
        _ = try session.save()
        session.close()
        let text = try await Tool.run("pdftotext", [copy.path, "-"]).text
        #expect(!text.contains("lazy") && text.contains("quick brown fox"), "\(text)")
    }
}
