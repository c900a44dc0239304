import Foundation
import RendererProvider
import Testing
import TestSupport

/// The collaboration contract of a session, on both engines: what the service is told, who
/// the author is, which edits of other readers' annotations are refused, and remote changes
/// applied without an echo. The service is a recording fake: the contract's edge is what is
/// tested here; the real service is the sync client's.
@Suite("Sessions in collaboration mode, on every backend")
struct CollaborationContractTests {
    /// Records what the session tells it.
    final class RecordingService: CollaborationService, @unchecked Sendable {
        // @unchecked: the session calls it under its own lock; the tests read it after.
        let currentUserID: String
        let permissions: CollaborationPermissions
        var loaded: [Annotation]?
        var local: [AnnotationChanges] = []

        init(user: String, permissions: Set<String>) {
            currentUserID = user
            self.permissions = CollaborationPermissions(permissions)
        }

        func documentLoaded(_ session: ReadingSession, annotations: [Annotation]) { loaded = annotations }
        func session(_ session: ReadingSession, didChangeLocally changes: AnnotationChanges) { local.append(changes) }
    }

    static let note = Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 72, y: 72, width: 100, height: 50), contents: "mine", author: "mallory")

    private func session(_ copy: WorkingCopy, backend: String, service: RecordingService, recorder: SessionRecorder? = nil) throws -> ReadingSession {
        let session = ReadingSession(
            file: FileState(internalPath: copy.path), registry: Fixtures.registry,
            configuration: SessionConfiguration(renderer: .id(backend), collaboration: service), delegate: recorder)
        try session.open()
        return session
    }

    @Test(arguments: Fixtures.backendIDs)
    func localChangesGoToTheServiceWithTheReaderAsAuthor(backend: String) throws {
        let copy = try WorkingCopy("annotations.pdf")
        defer { copy.remove() }
        let service = RecordingService(user: "alice", permissions: ["write"])
        let session = try session(copy, backend: backend, service: service)
        defer { session.close() }
        #expect(service.loaded?.map(\.id) == (try session.annotations()).map(\.id))
        #expect(service.loaded?.isEmpty == false)

        // The annotation claims to be Mallory's; the session takes the author from the service.
        var added = try session.addAnnotation(Self.note)
        #expect(added.author == "alice")
        added.contents = "edited"
        added.author = "mallory"
        let updated = try session.updateAnnotation(added)
        #expect(updated.author == "alice" && updated.contents == "edited")
        try session.removeAnnotation(withID: added.id)
        #expect(service.local.map { [$0.added.count, $0.modified.count, $0.removed.count] } == [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
        #expect(service.local.allSatisfy { !$0.isRemote })
        #expect(service.local[0].added[0].author == "alice")
    }

    @Test(arguments: Fixtures.backendIDs)
    func othersAnnotationsAreRefusedUnlessGranted(backend: String) throws {
        let copy = try WorkingCopy("annotations.pdf")
        defer { copy.remove() }
        // Bob adds one, then Alice opens the file, with only her own edits permitted.
        let bob = RecordingService(user: "bob", permissions: ["write"])
        let bobs = try session(copy, backend: backend, service: bob)
        let bobsNote = try bobs.addAnnotation(Self.note)
        try bobs.save()
        bobs.close()

        let alice = RecordingService(user: "alice", permissions: ["annotations:edit:self"])
        let session = try session(copy, backend: backend, service: alice)
        var changed = bobsNote
        changed.contents = "hijacked"
        #expect { try session.updateAnnotation(changed) } throws: { ($0 as? RendererError)?.code == .notPermitted }
        #expect { try session.removeAnnotation(withID: bobsNote.id) } throws: { ($0 as? RendererError)?.code == .notPermitted }
        #expect { try session.importAnnotations([changed]) } throws: { ($0 as? RendererError)?.code == .notPermitted }
        #expect(try session.annotation(withID: bobsNote.id).contents == "mine")
        #expect(alice.local.isEmpty)
        session.close()

        // With annotations:edit:all and annotations:delete:all, a moderator may.
        let moderator = RecordingService(user: "carol", permissions: ["annotations:edit:all", "annotations:delete:all"])
        let moderated = try self.session(copy, backend: backend, service: moderator)
        defer { moderated.close() }
        let edited = try moderated.updateAnnotation(changed)
        #expect(edited.contents == "hijacked" && edited.author == "bob")
        try moderated.removeAnnotation(withID: bobsNote.id)
        #expect(moderator.local.count == 2)
    }

    @Test(arguments: Fixtures.backendIDs)
    func aReadOnlyReaderCannotAnnotate(backend: String) throws {
        let copy = try WorkingCopy("text.pdf")
        defer { copy.remove() }
        let reader = RecordingService(user: "dave", permissions: ["read-document"])
        let session = try session(copy, backend: backend, service: reader)
        defer { session.close() }
        #expect { try session.addAnnotation(Self.note) } throws: { ($0 as? RendererError)?.code == .notPermitted }
        #expect(try session.annotations().isEmpty && reader.local.isEmpty)
    }

    @Test(arguments: Fixtures.backendIDs)
    func remoteChangesAreAppliedAndNotEchoed(backend: String) throws {
        let copy = try WorkingCopy("text.pdf")
        defer { copy.remove() }
        let recorder = SessionRecorder()
        let service = RecordingService(user: "alice", permissions: ["annotations:edit:self"])
        let session = try session(copy, backend: backend, service: service, recorder: recorder)
        defer { session.close() }

        var remote = Self.note
        remote.id = "bob-note-1"
        remote.author = "bob"
        let added = try session.applyRemoteChanges(AnnotationChanges(added: [remote]))
        #expect(added.isRemote && added.added.map(\.id) == ["bob-note-1"])
        let stored = try session.annotation(withID: "bob-note-1")
        #expect(stored.author == "bob" && stored.contents == "mine")

        remote.contents = "moved and edited"
        remote.pageIndex = 2
        let modified = try session.applyRemoteChanges(AnnotationChanges(modified: [remote]))
        #expect(modified.modified.map(\.pageIndex) == [2])
        #expect(try session.annotations(pageAt: 0).isEmpty)
        #expect(try session.annotation(withID: "bob-note-1").contents == "moved and edited")

        let removed = try session.applyRemoteChanges(AnnotationChanges(removed: [remote, Self.note]))
        #expect(removed.removed.map(\.id) == ["bob-note-1"])  // one that is not held is passed over
        #expect(try session.annotations().isEmpty)

        #expect(service.local.isEmpty)  // nothing went back to the service
        #expect(recorder.calls.filter { $0.hasPrefix("annotationsChanged") } == [
            "annotationsChanged +1 ~0 -0", "annotationsChanged +0 ~1 -0", "annotationsChanged +0 ~0 -1",
        ])
    }
}
