import Foundation
import RendererProvider
import Testing
import TestSupport

/// Saving through a session on both engines: read-only files, the host's veto and choice of
/// mode, save-to, and copy-back with its conflict check, each losing nothing.
@Suite("Session saving and copy-back, on every backend")
struct SessionSavingTests {
    static let note = Annotation(kind: .circle, pageIndex: 0, rect: PageRect(x: 100, y: 100, width: 60, height: 60), contents: "copy me")

    /// An original in one folder and the session's internal copy of it in another.
    struct CopyBackSetup {
        let original: WorkingCopy
        let internalDirectory: URL
        let internalPath: String

        init() throws {
            original = try WorkingCopy("text.pdf")
            internalDirectory = try Tool.temporaryDirectory()
            internalPath = internalDirectory.appendingPathComponent("internal.pdf").path
            try FileManager.default.copyItem(atPath: original.path, toPath: internalPath)
        }

        var file: FileState { FileState(internalPath: internalPath, displayPath: "Report", originalPath: original.path, requiresCopyBack: true) }

        func remove() {
            original.remove()
            try? FileManager.default.removeItem(at: internalDirectory)
        }
    }

    static func annotationCount(_ path: String, backend: String) throws -> Int {
        try Fixtures.registry.open(.file(path), renderer: .id(backend)).annotations().count
    }

    @Test(arguments: Fixtures.backendIDs)
    func aReadOnlyFileRefusesSaveAndAllowsSaveTo(backend: String) throws {
        let copy = try WorkingCopy("text.pdf")
        defer { copy.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: copy.path))
        let session = ReadingSession(
            file: FileState(internalPath: copy.path, isReadOnly: true), registry: Fixtures.registry,
            configuration: SessionConfiguration(renderer: .id(backend)))
        try session.open()
        defer { session.close() }
        try session.addAnnotation(Self.note)
        let error = #expect(throws: RendererError.self) { try session.save() }
        #expect(error?.code == .notPermitted && error?.message.contains("read-only") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.path)) == before)
        let other = copy.directory.appendingPathComponent("other.pdf").path
        #expect(try session.save(to: other) == .saved(path: other))
        #expect(try Self.annotationCount(other, backend: backend) == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.path)) == before, "save-to leaves the session's file alone")
        #expect(try session.annotations().count == 1, "the session goes on with its change")
    }

    @Test(arguments: Fixtures.backendIDs)
    func theHostMayVetoASaveOrChooseItsMode(backend: String) async throws {
        let copy = try WorkingCopy("text.pdf")
        defer { copy.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: copy.path))
        let recorder = SessionRecorder()
        let session = ReadingSession(
            file: FileState(internalPath: copy.path), registry: Fixtures.registry,
            configuration: SessionConfiguration(renderer: .id(backend)), delegate: recorder)
        let stream = session.events()
        try session.open()
        try session.addAnnotation(Self.note)
        recorder.answerSaves(with: nil)
        #expect(try session.save() == .cancelled)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.path)) == before)
        recorder.answerSaves(with: .rewrite)
        #expect(try session.save(mode: .incremental) == .saved(path: copy.path))
        let after = try Data(contentsOf: URL(fileURLWithPath: copy.path))
        #expect(!after.starts(with: before), "the host's rewrite mode was used, not the incremental one asked for")
        session.close()
        let events = await collect(stream)
        #expect(events.map(\.name) == [
            "firstPageLoaded", "documentShown", "annotationsChanged", "saveCancelled", "willSave", "saved", "willClose", "closed",
        ])
        #expect(events.contains(.willSave(path: copy.path, mode: .rewrite)))
    }

    @Test(arguments: Fixtures.backendIDs)
    func aFailedSaveIsToldAndLeavesTheFile(backend: String) throws {
        let copy = try WorkingCopy("text.pdf")
        defer { copy.remove() }
        let recorder = SessionRecorder()
        let session = ReadingSession(
            file: FileState(internalPath: copy.path), registry: Fixtures.registry,
            configuration: SessionConfiguration(renderer: .id(backend)), delegate: recorder)
        try session.open()
        defer { session.close() }
        let error = #expect(throws: RendererError.self) { try session.save(to: "/proc/no-such-place/out.pdf") }
        #expect(error?.code == .ioFailure)
        #expect(recorder.calls.suffix(2) == ["willSave", "saveFailed io-failure"])
    }

    @Test(arguments: Fixtures.backendIDs)
    func aSaveIsCopiedBackToTheOriginal(backend: String) async throws {
        let setup = try CopyBackSetup()
        defer { setup.remove() }
        let recorder = SessionRecorder()
        let session = ReadingSession(file: setup.file, registry: Fixtures.registry, configuration: SessionConfiguration(renderer: .id(backend)), delegate: recorder)
        let stream = session.events()
        try session.open()
        try session.addAnnotation(Self.note)
        #expect(try session.save() == .saved(path: setup.internalPath))
        #expect(try Self.annotationCount(setup.original.path, backend: backend) == 1)
        // A second save copies back again: the session's own copy-back is not a conflict.
        try session.addAnnotation(Annotation(kind: .square, pageIndex: 1, rect: Self.note.rect))
        #expect(try session.save() == .saved(path: setup.internalPath))
        #expect(try Self.annotationCount(setup.original.path, backend: backend) == 2)
        session.close()
        #expect(recorder.calls.filter { ["willSave", "saved", "copyBack", "copiedBack"].contains($0) }
            == ["willSave", "saved", "copyBack", "copiedBack", "willSave", "saved", "copyBack", "copiedBack"])
        let names = await collect(stream).map(\.name)
        #expect(names.firstIndex(of: "copyBackRequested")! > names.firstIndex(of: "saved")!)
        #expect(names.firstIndex(of: "copiedBack")! > names.firstIndex(of: "copyBackRequested")!)
    }

    /// Someone else changes the original while the session has it: the copy-back reports a
    /// conflict and overwrites nothing; both versions stay, and the error says where ours is.
    @Test(arguments: Fixtures.backendIDs)
    func aChangedOriginalIsAConflictAndKeepsBothFiles(backend: String) throws {
        let setup = try CopyBackSetup()
        defer { setup.remove() }
        let recorder = SessionRecorder()
        let session = ReadingSession(file: setup.file, registry: Fixtures.registry, configuration: SessionConfiguration(renderer: .id(backend)), delegate: recorder)
        try session.open()
        defer { session.close() }
        let theirs = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("colors.pdf")))
        try theirs.write(to: URL(fileURLWithPath: setup.original.path))
        try session.addAnnotation(Self.note)
        let result = try session.save()
        guard case .savedWithoutCopyBack(let path, let error) = result else {
            Issue.record("expected a conflict, got \(result)")
            return
        }
        #expect(path == setup.internalPath && error.code == .conflict)
        #expect(error.message.contains(setup.internalPath))
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.original.path)) == theirs, "their change is kept")
        #expect(try Self.annotationCount(setup.internalPath, backend: backend) == 1, "ours is kept")
        #expect(recorder.calls.suffix(3) == ["willSave", "saved", "copyBackFailed conflict"])
        #expect(!recorder.calls.contains("copyBack"), "the host is not asked to copy over a conflict")
    }

    @Test(arguments: Fixtures.backendIDs)
    func aCopyBackTheHostCannotDoLosesNothing(backend: String) throws {
        let setup = try CopyBackSetup()
        defer { setup.remove() }
        let original = try Data(contentsOf: URL(fileURLWithPath: setup.original.path))
        let recorder = SessionRecorder()
        recorder.answerCopyBack(with: .failed("the share is offline"))
        let session = ReadingSession(file: setup.file, registry: Fixtures.registry, configuration: SessionConfiguration(renderer: .id(backend)), delegate: recorder)
        try session.open()
        defer { session.close() }
        try session.addAnnotation(Self.note)
        guard case .savedWithoutCopyBack(_, let error) = try session.save() else {
            Issue.record("the failed copy-back was not reported")
            return
        }
        #expect(error.code == .ioFailure)
        #expect(error.message.contains("the share is offline") && error.message.contains(setup.internalPath))
        #expect(recorder.calls.suffix(4) == ["willSave", "saved", "copyBack", "copyBackFailed io-failure"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.original.path)) == original)
        #expect(try Self.annotationCount(setup.internalPath, backend: backend) == 1)
    }

    @Test func copyBackWithoutAnOriginalIsALoadFailure() throws {
        let recorder = SessionRecorder()
        let session = ReadingSession(
            file: FileState(internalPath: Fixtures.path("text.pdf"), requiresCopyBack: true), registry: Fixtures.registry, delegate: recorder)
        #expect((#expect(throws: RendererError.self) { try session.open() })?.code == .invalidArgument)
        #expect(recorder.calls == ["loadFailed invalid-argument"])
    }
}
