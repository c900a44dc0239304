import Foundation
import RendererProvider
import Testing
import TestSupport

/// Undo and redo through a session: each edit taken back and made again through the
/// session's own calls, told as any change, and what the file then holds read by another
/// engine and `pdftotext`.
@Suite struct SessionUndoTests {
    static let note = Annotation(
        kind: .square, pageIndex: 0, rect: PageRect(x: 72, y: 72, width: 100, height: 50), color: Color(red: 1, green: 0, blue: 0), contents: "Undo me")

    /// Outline and link edits are taken back and made again, told as any change, and what
    /// is saved after the undo is the outline and links as they were.
    @Test(arguments: Fixtures.backendIDs)
    func outlineAndLinkEditsAreTakenBackAndMadeAgain(backend: String) async throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("outline.pdf", backend: backend, delegate: recorder)
        defer { copy.remove() }
        let original = try session.outline()
        try session.moveOutlineItem(from: [2], to: [0])
        try session.updateOutlineItem(at: [0]) { $0.isBold = true }
        #expect(try session.undo())
        #expect(try session.outline().map(\.title) == ["Website", "Chapter 1", "Chapter 2"] && recorder.calls.last?.hasPrefix("outlineChanged") == true)
        #expect(try session.undo())
        #expect(try session.outline() == original)
        #expect(try session.redo())
        #expect(try session.outline().first?.title == "Website")
        #expect(try session.undo())

        let links = try session.links(pageAt: 1)
        let area = PageRect(x: 300, y: 300, width: 40, height: 20)
        try session.addLink(Link(area: area, destination: .uri("https://example.org/undo")), pageAt: 1)
        #expect(try session.links(pageAt: 1).count == links.count + 1)
        #expect(try session.undo())
        #expect(try session.links(pageAt: 1) == links && recorder.calls.last?.hasPrefix("linksChanged 1") == true)
        #expect(try session.redo())
        #expect(try session.removeLinks(in: area, pageAt: 1) == 1)
        #expect(try session.undo())
        #expect(try session.links(pageAt: 1).contains { $0.destination == .uri("https://example.org/undo") })
        _ = try session.save()
        session.close()
        let other = try await Fixtures.registry.open(.file(copy.path), renderer: .id(backend == "mupdf" ? "poppler" : "mupdf"))
        #expect(try other.outline().map(\.title) == original.map(\.title))
        #expect(try other.links(pageAt: 1).count == links.count + 1)
    }

    @Test(arguments: Fixtures.backendIDs)
    func annotationEditsAreTakenBackAndMadeAgain(backend: String) throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("text.pdf", backend: backend, delegate: recorder)
        defer { copy.remove() }
        let nothing = try session.undo()
        #expect(!session.canUndo && !session.canRedo && !nothing)
        let added = try session.addAnnotation(Self.note)
        var changed = added
        changed.contents = "Changed"
        try session.updateAnnotation(changed)
        #expect(session.canUndo && !session.canRedo)

        #expect(try session.undo())
        #expect(try session.annotation(withID: added.id).contents == "Undo me")
        #expect(recorder.calls.last?.hasPrefix("annotationsChanged") == true, "an undo is told as any change")
        #expect(try session.undo())
        #expect(try session.annotations().isEmpty && session.canRedo && !session.canUndo)
        #expect(try session.redo())
        #expect(try session.annotation(withID: added.id).contents == "Undo me")
        #expect(try session.redo())
        #expect(try session.annotation(withID: added.id).contents == "Changed" && !session.canRedo)

        try session.removeAnnotation(withID: added.id)
        #expect(try session.undo())
        let back = try session.annotation(withID: added.id)
        #expect(back.contents == "Changed" && back.kind == .square && back.pageIndex == 0, "the removed annotation comes back, its identity kept")
        // Undone again, the change of its text goes; a new edit empties what redo would make again.
        #expect(try session.undo())
        #expect(try session.annotation(withID: added.id).contents == "Undo me")
        #expect(session.canRedo)
        try session.addAnnotation(Self.note)
        #expect(!session.canRedo)

        _ = try session.save()
        session.close()
        let other = Fixtures.backendIDs.first { $0 != backend }!
        let saved = try Fixtures.registry.open(.file(copy.path), renderer: .id(other)).annotations(pageAt: 0)
        #expect(saved.map(\.contents) == ["Undo me", "Undo me"], "\(saved.map(\.contents))")
    }

    /// A thread removed with its root comes back whole, replies answering their root again.
    @Test(arguments: Fixtures.backendIDs)
    func aRemovedThreadComesBackWhole(backend: String) throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("text.pdf", backend: backend, delegate: recorder)
        defer { session.close(); copy.remove() }
        let root = try session.addAnnotation(Self.note)
        let reply = try session.addAnnotation(Annotation(
            kind: .text, pageIndex: 0, rect: PageRect(x: 200, y: 72, width: 20, height: 20), contents: "Answer", inReplyTo: root.id))
        try session.removeAnnotation(withID: root.id)
        #expect(try session.annotations().isEmpty && recorder.calls.last == "annotationsChanged +0 ~0 -2")
        #expect(try session.undo())
        let back = try session.annotations()
        #expect(back.map(\.id) == [root.id, reply.id] && back[1].inReplyTo == root.id && back[1].contents == "Answer")
        #expect(try session.redo())
        #expect(try session.annotations().isEmpty)
    }

    @Test(arguments: Fixtures.backendIDs)
    func formValuesAreTakenBack(backend: String) throws {
        let (session, copy) = try SessionSettingsTests.open("forms.pdf", backend: backend)
        defer { session.close(); copy.remove() }
        let before = try session.formValues().dictionary
        try session.fillForm(["name": ["Grace Hopper"], "size": ["L"]])
        try session.resetForm(fields: ["size"])
        #expect(try session.undo())
        #expect(try session.formValues()["size"]?.values == ["L"])
        #expect(try session.undo())
        #expect(try session.formValues().dictionary == before)
        #expect(try session.redo())
        #expect(try session.formValues()["name"]?.values == ["Grace Hopper"])
    }

    /// Page edits, undone in turn, give back the document as it was, text and all: a
    /// deletion's pages come back from the copy kept of the document before it (copied in,
    /// which Poppler does as MuPDF does).
    @Test(arguments: Fixtures.backendIDs)
    func pageEditsAreTakenBack(backend: String) async throws {
        let (session, copy) = try SessionSettingsTests.open("outline.pdf", backend: backend)
        defer { copy.remove() }
        try session.rotatePage(at: 0, by: 90)
        try session.movePage(from: 3, to: 0)
        try session.insertBlankPage(at: 1, size: PageSize(width: 200, height: 200))
        try session.deletePages([2, 4])
        #expect(try session.pageCount == 3)
        for _ in 0..<4 { #expect(try session.undo()) }
        #expect(try session.pageCount == 4 && session.pageInfo(pageAt: 0).rotation == .none)
        #expect(try session.redo())
        #expect(try session.pageInfo(pageAt: 0).rotation == .quarter)
        #expect(try session.undo())
        _ = try session.save()
        session.close()
        let text = try await Tool.run("pdftotext", ["-layout", copy.path, "-"]).text
            .split(separator: "\u{0C}", omittingEmptySubsequences: false).dropLast().map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(text == ["Outline page 1", "Outline page 2", "Outline page 3", "Outline page 4"], "\(text)")
    }

    /// An undo is checked as any edit: refused by the settings in force, it throws and the
    /// edit is forgotten; the limit keeps the newest edits; a change undo cannot take back
    /// (pages copied in) forgets them all.
    @Test func undoIsCheckedAndBounded() throws {
        var configuration = SessionConfiguration(renderer: .id("mupdf"))
        configuration.undoLimit = 2
        let copy = try WorkingCopy("text.pdf")
        defer { copy.remove() }
        let session = ReadingSession(file: FileState(internalPath: copy.path), registry: Fixtures.registry, configuration: configuration)
        try session.open()
        defer { session.close() }
        for text in ["one", "two", "three"] {
            var note = Self.note
            note.contents = text
            try session.addAnnotation(note)
        }
        let undone = [try session.undo(), try session.undo(), try session.undo()]
        #expect(undone == [true, true, false], "two kept of three")
        #expect(try session.annotations().map(\.contents) == ["one"])
        try session.insertPages(from: .file(Fixtures.path("text.pdf")), pages: [0])
        #expect(!session.canUndo && !session.canRedo)

        try session.addAnnotation(Self.note)
        try session.setEnabled(false, for: .annotations)
        let refused = #expect(throws: RendererError.self) { try session.undo() }
        #expect(refused?.code == .notPermitted && !session.canUndo)
        #expect(try session.annotations().count == 2)
    }

    /// An image stamp added through a session is taken back by undo and put back, picture and
    /// all, by redo; with annotations off in the settings, adding one is refused.
    @Test(arguments: Fixtures.backendIDs)
    func anImageStampComesBackWithItsPicture(backend: String) throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("text.pdf", backend: backend, delegate: recorder)
        defer { copy.remove() }
        let picture = try StampImage(data: StampPictures.png(StampPictures.quadrants()))
        let stamp = Annotation(kind: .stamp, pageIndex: 0, rect: StampPictures.room, contents: "photo")
        let added = try session.addImageStamp(stamp, image: picture)
        #expect(recorder.calls.last?.hasPrefix("annotationsChanged") == true)
        #expect(try session.undo())
        #expect(try session.annotations().isEmpty)
        #expect(try session.redo())
        #expect(try session.annotation(withID: added.id).rect == added.rect)
        let drawn = try session.render(pageAt: 0, options: RenderOptions(dpi: 72))
        let red = StampPictures.samples(in: added.rect)[0].point
        #expect(drawn.pixel(x: Int(red.x), y: Int(red.y)).prefix(3) == [255, 0, 0], "\(backend): the picture is back")

        var settings = DocumentSettings()
        settings[.annotations] = FeatureSetting(available: true, enabled: false)
        let (locked, lockedCopy) = try SessionSettingsTests.open("text.pdf", backend: backend, settings: settings)
        defer { lockedCopy.remove() }
        let refused = #expect(throws: RendererError.self) { try locked.addImageStamp(stamp, image: picture) }
        #expect(refused?.code == .notPermitted)
        #expect(try locked.annotations().isEmpty)
    }
}
