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
        let reopened = try Fixtures.registry.open(.file(copy.path), renderer: .id(backend))
        #expect(try reopened.info().title == "Retitled in a session" && reopened.xmpMetadata()?.title == "Retitled in a session")
    }

    /// A file embedded and one removed through a session: told with the attachments as they
    /// are then, and saved; where the settings forbid editing, refused and nothing told.
    @Test func attachmentsChangedThroughASessionAreToldAndSaved() throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("attachments.pdf", backend: "mupdf", delegate: recorder)
        defer { copy.remove() }
        try session.addAttachment(name: "added.txt", contents: Data("added\n".utf8))
        #expect(recorder.calls.last == "attachmentsChanged added.txt,data.csv,notes.txt,../../evil.txt")
        try session.removeAttachment(at: 1)
        #expect(recorder.calls.last == "attachmentsChanged added.txt,notes.txt,../../evil.txt")
        _ = try session.save()
        session.close()
        let reopened = try Fixtures.registry.open(.file(copy.path), renderer: .id("poppler"))
        #expect(try reopened.attachments().map(\.name) == ["added.txt", "notes.txt", "../../evil.txt"])
        var settings = DocumentSettings()
        settings[.editing] = FeatureSetting(available: false, enabled: false)
        let other = SessionRecorder()
        let (locked, lockedCopy) = try SessionSettingsTests.open("attachments.pdf", backend: "mupdf", settings: settings, delegate: other)
        defer { lockedCopy.remove() }
        #expect(throws: RendererError.self) { try locked.addAttachment(name: "x", contents: Data("x".utf8)) }
        #expect(!other.calls.contains { $0.hasPrefix("attachmentsChanged") })
        locked.close()
    }

    /// The outline and links edited through a session: told as they are then, and saved;
    /// where the settings forbid editing, refused and nothing told.
    @Test(arguments: Fixtures.backendIDs)
    func outlineAndLinksChangedThroughASessionAreToldAndSaved(backend: String) throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("outline.pdf", backend: backend, delegate: recorder)
        defer { copy.remove() }
        try session.insertOutlineItem(OutlineItem(title: "Preface", destination: .page(index: 0, point: nil, view: DestinationView(fit: .fit))), at: [0])
        #expect(recorder.calls.last == "outlineChanged Preface,Chapter 1,Chapter 2,Website")
        try session.removeOutlineItem(at: [3])
        #expect(recorder.calls.last == "outlineChanged Preface,Chapter 1,Chapter 2")
        let area = PageRect(x: 10, y: 10, width: 30, height: 30)
        let before = try session.links(pageAt: 1).count
        try session.addLink(Link(area: area, destination: .uri("https://example.org/session")), pageAt: 1)
        #expect(recorder.calls.last == "linksChanged 1 \(before + 1)")
        _ = try session.save()
        session.close()
        let reopened = try Fixtures.registry.open(.file(copy.path), renderer: .id(backend == "mupdf" ? "poppler" : "mupdf"))
        #expect(try reopened.outline().map(\.title) == ["Preface", "Chapter 1", "Chapter 2"])
        #expect(try reopened.links(pageAt: 1).contains { $0.destination == .uri("https://example.org/session") })
        var settings = DocumentSettings()
        settings[.editing] = FeatureSetting(available: false, enabled: false)
        let other = SessionRecorder()
        let (locked, lockedCopy) = try SessionSettingsTests.open("outline.pdf", backend: backend, settings: settings, delegate: other)
        defer { lockedCopy.remove() }
        #expect(throws: RendererError.self) { try locked.setOutline([]) }
        #expect(throws: RendererError.self) { try locked.addLink(Link(area: area, destination: .uri("https://example.org/")), pageAt: 0) }
        #expect(!other.calls.contains { $0.hasPrefix("outlineChanged") || $0.hasPrefix("linksChanged") })
        locked.close()
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
