import EngineSupport
import Foundation
import RendererProvider
import Testing
import TestSupport

/// Annotations added, changed and removed through each backend, saved and read back.
@Suite("Annotations, on every backend")
struct AnnotationConformanceTests {
    /// Every creatable kind with every field, on a plain, a rotated and a cropped page.
    @Test(arguments: Fixtures.conformanceBackendIDs, [("text.pdf", 0), ("rotated.pdf", 1), ("cropbox.pdf", 0)])
    func addedAnnotationsReadBackAfterSaving(backend: String, page: (file: String, index: Int)) throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path(page.file))
        let document = try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        let before = try document.annotations(pageAt: page.index).count
        var added: [Annotation] = []
        for sample in AnnotationSamples.samples(pageIndex: page.index) {
            added.append(try document.addAnnotation(sample))
        }
        #expect(Set(added.map(\.id)).count == added.count, "identities are unique")
        try document.save()

        let reopened = try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        let read = try reopened.annotations(pageAt: page.index)
        #expect(read.count == before + added.count)
        for (sample, stored) in zip(AnnotationSamples.samples(pageIndex: page.index), added) {
            guard let back = read.first(where: { $0.id == stored.id }) else {
                Issue.record("\(sample.kind) \(stored.id) is missing after saving")
                continue
            }
            #expect(AnnotationSamples.differences(sample, back, in: Set(AnnotationField.allCases)) == [], "\(backend) \(page.file)")
        }
    }
}

extension AnnotationConformanceTests {
    /// Each engine's C layer writes a record's fields into an annotation as the record's kind
    /// says that kind has them (the engine contract's table, carried by the record), and only
    /// into an annotation of that kind: below the checks `Document` makes, a record of
    /// another kind is refused and the annotation is left as it was.
    @Test(arguments: Fixtures.backendIDs)
    func aCLayerWritesARecordOnlyIntoItsOwnKind(backend: String) throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let renderer = try #require(Fixtures.conformanceRegistry.renderers.first { $0.id == backend })
        let engine = try renderer.openDocument(.file(path), password: nil, limits: DocumentLimits())
        let page = try #require(try engine.loadPage(at: 0) as? any AnnotationEditing)
        var drawn = Self.square(1)
        drawn.id = "square-1"
        let square = try page.addAnnotation(drawn)
        var ink = square
        ink.kind = .ink
        ink.inkPaths = [[PagePoint(x: 60, y: 310), PagePoint(x: 120, y: 330)]]
        #expect(throws: RendererError.self) { try page.updateAnnotation(ink) }
        let kept = try #require(try page.annotations().first { $0.id == square.id })
        #expect(kept.kind == .square && kept.rect == square.rect && kept.inkPaths.isEmpty, "\(kept)")
    }

    static func square(_ number: Int, page: Int = 0) -> Annotation {
        Annotation(
            kind: .square, pageIndex: page, rect: PageRect(x: 50 + Double(number) * 100, y: 300, width: 80, height: 40),
            color: Color(red: 0, green: 0, blue: 1), contents: "square \(number)")
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func updateAndRemoveByIdentity(backend: String) throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let document = try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        let added = try (0..<3).map { try document.addAnnotation(Self.square($0)) }
        var changed = added[1]
        changed.contents = "changed"
        changed.color = Color(red: 1, green: 0, blue: 0)
        changed.rect = PageRect(x: 200, y: 400, width: 60, height: 60)
        let updated = try document.updateAnnotation(changed)
        #expect(updated.id == added[1].id)
        #expect(AnnotationSamples.differences(changed, updated, in: [.rect, .color, .contents]) == [])

        try document.removeAnnotation(withID: added[0].id)
        #expect(try document.annotations(pageAt: 0).map(\.id) == [added[1].id, added[2].id], "the others keep their identities")
        #expect(try document.annotation(withID: added[2].id).contents == "square 2")
        #expect(document.hasUnsavedChanges)
        try document.save()
        #expect(!document.hasUnsavedChanges)

        let read = try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).annotations(pageAt: 0)
        #expect(read.map(\.contents) == ["changed", "square 2"])
        #expect(AnnotationSamples.differences(changed, read[0], in: [.rect, .color, .contents]) == [])
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func mistakesAreTypedErrors(backend: String) throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        let missing = #expect(throws: RendererError.self) { try document.removeAnnotation(withID: "no-such-annotation") }
        #expect(missing?.code == .invalidArgument)
        let page = #expect(throws: RendererError.self) { try document.addAnnotation(Self.square(0, page: 7)) }
        #expect(page?.code == .pageOutOfRange)
        var line = AnnotationSamples.sample(.line, pageIndex: 0, number: 0)
        line.points = [PagePoint(x: 1, y: 1)]
        #expect(throws: RendererError.self) { try document.addAnnotation(line) }
        let caret = #expect(throws: RendererError.self) {
            try document.addAnnotation(Annotation(kind: AnnotationKind(rawValue: "Caret"), pageIndex: 0, rect: PageRect(x: 0, y: 0, width: 9, height: 9)))
        }
        #expect(caret?.code == .invalidArgument)
        let added = try document.addAnnotation(Self.square(0))
        var turned = added
        turned.kind = .circle
        #expect(throws: RendererError.self) { try document.updateAnnotation(turned) }
        let duplicate = #expect(throws: RendererError.self) { try document.addAnnotation(Annotation(id: added.id, kind: .circle, pageIndex: 0, rect: added.rect)) }
        #expect(duplicate?.code == .invalidArgument)
    }

    /// A change shows in the next drawing of the page, before anything is saved.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func anAddedAnnotationIsDrawnBeforeSaving(backend: String) throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        let area = PageRect(x: 400, y: 600, width: 100, height: 100)
        func redPixels() throws -> Int {
            let bitmap = try document.render(pageAt: 0, options: RenderOptions(scale: 1))
            var count = 0
            for y in Int(area.minY) + 10..<Int(area.maxY) - 10 {
                for x in Int(area.minX) + 10..<Int(area.maxX) - 10 {
                    let p = bitmap.pixel(x: x, y: y)
                    if p[0] > 200 && p[1] < 60 && p[2] < 60 { count += 1 }
                }
            }
            return count
        }
        #expect(try redPixels() == 0)
        try document.addAnnotation(Annotation(kind: .square, pageIndex: 0, rect: area, color: .black, interiorColor: Color(red: 1, green: 0, blue: 0)))
        #expect(try redPixels() == 80 * 80, "the inside of the square is filled red")
        #expect(document.hasUnsavedChanges)
    }

    /// Both engines create every kind and read and write every field; the tests above
    /// hold them to that.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func supportIsComplete(backend: String) throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        #expect(document.renderer.annotationSupport == .complete)
    }
}

/// Saving: through a temporary file, incremental by default, never damaging the original.
@Suite("Saving, on every backend")
struct SavingConformanceTests {
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func incrementalSaveKeepsTheOriginalBytesAsAPrefix(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        try await document.addAnnotation(AnnotationConformanceTests.square(0))
        try document.save(mode: .incremental)
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(saved.count > original.count)
        #expect(saved.prefix(original.count) == original)
        #expect(try await Tool.run("qpdf", ["--check", path]).status == 0)
        #expect(try directoryEntries(of: path) == ["text.pdf"], "no temporary file is left")
        // Saving again, in place, on the document now reading the saved file.
        try await document.addAnnotation(AnnotationConformanceTests.square(1))
        try document.save()
        #expect(try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).annotations(pageAt: 0).count == 2)
        #expect(try await Tool.run("qpdf", ["--check", path]).status == 0)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func rewriteWritesOneWholeFile(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        try await document.addAnnotation(AnnotationConformanceTests.square(0))
        let copy = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("rewritten.pdf").path
        try document.save(to: copy, mode: .rewrite)
        let rewritten = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(rewritten.ranges(of: Data("%%EOF".utf8)).count == 1, "no incremental update section")
        #expect(try await Tool.run("qpdf", ["--check", copy]).status == 0)
        #expect(try await Fixtures.conformanceRegistry.open(.file(copy), renderer: .id(backend)).annotations(pageAt: 0).map(\.contents) == ["square 0"])
    }

    /// A file the engine had to repair is rewritten whole: an update appended to a broken
    /// file would leave it broken for other readers.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aRepairedFileIsRewrittenNotAppendedTo(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let startxref = try #require(bytes.range(of: Data("startxref".utf8), options: .backwards))
        bytes.replaceSubrange(startxref.upperBound..<bytes.count, with: Data("\n12345\n%%EOF\n".utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try await Tool.run("qpdf", ["--check", path]).status != 0, "the cross-reference offset is broken")

        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        try await document.addAnnotation(AnnotationConformanceTests.square(0))
        let refused = #expect(throws: RendererError.self) { try document.save(mode: .incremental) }
        #expect(refused?.code == .invalidArgument)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        try document.save()
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(saved.ranges(of: Data("%%EOF".utf8)).count == 1)
        #expect(try await Tool.run("qpdf", ["--check", path]).status == 0)
        #expect(try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).annotations(pageAt: 0).map(\.contents) == ["square 0"])
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func saveIntoAReadOnlyDirectoryFailsAndLeavesTheOriginal(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        try await document.addAnnotation(AnnotationConformanceTests.square(0))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        if access(directory, W_OK) == 0 {
            // Running as root, whom permissions do not stop: make the directory immutable.
            #expect(try await Tool.run("chattr", ["+i", directory]).status == 0, "chattr +i is needed to test this as root")
        }
        defer { _ = try? Tool.runBlocking("chattr", ["-i", directory]) }
        let error = #expect(throws: RendererError.self) { try document.save() }
        #expect(error?.code == .ioFailure)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(try directoryEntries(of: path) == ["text.pdf"])
        #expect(document.hasUnsavedChanges)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs, [SaveMode.incremental, .rewrite])
    func encryptionIsKept(backend: String, mode: SaveMode) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("encrypted.pdf"))
        let document = try await Fixtures.conformanceRegistry.open(.file(path), password: "owner-secret", renderer: .id(backend))
        try await document.addAnnotation(AnnotationConformanceTests.square(0))
        try document.save(mode: mode)
        let locked = #expect(throws: RendererError.self) { try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)) }
        #expect(locked?.code == .passwordRequired)
        let reopened = try await Fixtures.conformanceRegistry.open(.file(path), password: "user-secret", renderer: .id(backend))
        #expect(try reopened.annotations(pageAt: 0).map(\.contents) == ["square 0"])
        #expect(try reopened.info().isEncrypted)
        #expect(try await Tool.run("qpdf", ["--check", "--password=owner-secret", path]).status == 0)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aDocumentFromMemorySavesToAPath(backend: String) async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf")))
        let document = try await Fixtures.conformanceRegistry.open(.memory(data), renderer: .id(backend))
        try await document.addAnnotation(AnnotationConformanceTests.square(0))
        #expect(throws: RendererError.self) { try document.save() }
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf")) + ".saved.pdf"
        try document.save(to: path)
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(saved.prefix(data.count) == data)
        #expect(try await Tool.run("qpdf", ["--check", path]).status == 0)
    }

    private func directoryEntries(of path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path).sorted()
    }
}

/// annotations.pdf, whose annotation dictionaries make-fixtures.js writes by hand.
@Suite("Annotations in a file, on every backend")
struct AnnotationFixtureTests {
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func everyKindIsListedWithItsFields(backend: String) throws {
        let document = try Fixtures.open("annotations.pdf", backend: backend)
        let listed = try document.annotations(pageAt: 0)
        #expect(listed.map(\.id) == ["note-1", "p1-Highlight-1", "box", "p1-Ink-1", "line-1", "p1-PolyLine-1", "caret", "p1-FileAttachment-1", "p1-Highlight-2"])
        #expect(listed.map(\.kind.rawValue) == ["Text", "Highlight", "Square", "Ink", "Line", "PolyLine", "Caret", "FileAttachment", "Highlight"])
        let yellow = Color(red: 1, green: 1, blue: 0)
        let expected = [
            Annotation(
                id: "note-1", kind: .text, pageIndex: 0, rect: PageRect(x: 72, y: 72, width: 20, height: 20), color: yellow,
                contents: "A note", author: "Ada", subject: "Greeting",
                creationDate: PDFDateFixture.date("2024-01-02T03:04:05Z"), modificationDate: PDFDateFixture.date("2024-02-03T04:05:06Z"),
                flags: [.print, .noZoom, .noRotate], iconName: "Comment"),
            Annotation(
                id: "p1-Highlight-1", kind: .highlight, pageIndex: 0, rect: PageRect(x: 70, y: 60, width: 230, height: 16),
                quads: [Quad(PageRect(x: 72, y: 60, width: 228, height: 16))], color: yellow, contents: "marked"),
            Annotation(
                id: "box", kind: .square, pageIndex: 0, rect: PageRect(x: 300, y: 432, width: 100, height: 60),
                color: Color(red: 0, green: 0, blue: 1), interiorColor: Color(red: 1, green: 0, blue: 0), borderWidth: 3),
            Annotation(
                id: "p1-Ink-1", kind: .ink, pageIndex: 0, rect: PageRect(x: 100, y: 592, width: 100, height: 100),
                inkPaths: [[PagePoint(x: 110, y: 682), PagePoint(x: 150, y: 602), PagePoint(x: 190, y: 682)]],
                color: Color(red: 0, green: 1, blue: 0), borderWidth: 2, flags: []),
            Annotation(
                id: "line-1", kind: .line, pageIndex: 0, rect: PageRect(x: 300, y: 592, width: 200, height: 100),
                points: [PagePoint(x: 310, y: 682), PagePoint(x: 490, y: 602)], color: Color(red: 1, green: 0, blue: 0),
                borderWidth: 1.5, flags: []),
            Annotation(
                id: "p1-PolyLine-1", kind: .polyLine, pageIndex: 0, rect: PageRect(x: 50, y: 392, width: 200, height: 100),
                points: [PagePoint(x: 60, y: 482), PagePoint(x: 150, y: 402), PagePoint(x: 240, y: 482)], color: .black, flags: []),
        ]
        for annotation in expected {
            guard let found = listed.first(where: { $0.id == annotation.id }) else { continue }
            #expect(AnnotationSamples.differences(annotation, found, in: Set(AnnotationField.allCases)) == [], "\(backend)")
        }
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func readOnlyKindsCannotBeChangedButCanBeRemoved(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("annotations.pdf"))
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        var caret = try document.annotation(withID: "caret")
        caret.contents = "changed"
        #expect(throws: RendererError.self) { try document.updateAnnotation(caret) }
        try await document.removeAnnotation(withID: "note-1")
        try await document.removeAnnotation(withID: "p1-Highlight-1")
        #expect(try document.annotations(pageAt: 0).map(\.id) == ["box", "p1-Ink-1", "line-1", "p1-PolyLine-1", "caret", "p1-FileAttachment-1", "p1-Highlight-2"])
        try document.save()
        #expect(try await Tool.run("qpdf", ["--check", path]).status == 0)
        let reread = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).annotations(pageAt: 0)
        #expect(reread.map(\.kind.rawValue) == ["Square", "Ink", "Line", "PolyLine", "Caret", "FileAttachment", "Highlight"])
        // The last highlight, now the first, was named before the other was removed.
        #expect(reread.map(\.id) == ["box", "p1-Ink-1", "line-1", "p1-PolyLine-1", "caret", "p1-FileAttachment-1", "p1-Highlight-2"])
        #expect(try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).links(pageAt: 0).count == 1, "the link stays")
        // The popup went with its note: mutool, an independent reader here, lists the subtypes left.
        let subtypes = try await Tool.run("mutool", ["show", path, "pages/1/Annots/*/Subtype"]).text.split(separator: "\n")
        #expect(subtypes == ["/Link", "/Square", "/Ink", "/Line", "/PolyLine", "/Caret", "/FileAttachment", "/Highlight"])
    }
}

enum PDFDateFixture {
    static func date(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }
}
