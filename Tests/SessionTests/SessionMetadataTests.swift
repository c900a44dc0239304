import Foundation
import RendererProvider
import RendererProviderMetadata
import Testing
import TestSupport

/// Metadata set through a session: the host is told, the settings and the PDF's
/// permissions are enforced, and the change is saved with the document.
@Suite struct SessionMetadataTests {
    @Test(arguments: Fixtures.backendIDs)
    func theHostIsToldAndTheChangeIsSaved(backend: String) throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("metadata.pdf", backend: backend, delegate: recorder)
        defer { copy.remove() }
        var metadata = try session.info().metadata
        metadata.title = "Retitled in a session"
        try session.setMetadata(metadata)
        #expect(recorder.calls.last == "metadataChanged Retitled in a session")
        #expect(try session.info().metadata == metadata)
        _ = try session.save()
        session.close()
        let reopened = try Fixtures.registry.open(.file(copy.path), backend: .id(backend))
        #expect(try reopened.info().title == "Retitled in a session" && reopened.xmpMetadata()?.title == "Retitled in a session")
    }

    /// restricted.pdf allows changes; encrypted.pdf, opened with its user password, does
    /// not: refused, nothing told.
    @Test(arguments: Fixtures.backendIDs)
    func thePDFsPermissionsAreEnforced(backend: String) throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("encrypted.pdf", backend: backend, password: "user-secret", delegate: recorder)
        defer { copy.remove() }
        let error = #expect(throws: RendererError.self) { try session.setMetadata(DocumentMetadata(title: "no")) }
        #expect(error?.code == .notPermitted && error?.message.contains("permission modify") == true, "\(error?.message ?? "")")
        #expect(!recorder.calls.contains { $0.hasPrefix("metadataChanged") })
        session.close()
    }
}
