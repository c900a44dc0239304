import Foundation
import RendererProvider
import Testing
import TestSupport

/// The annotation listing, read once for every engine from the page's objects, on a file
/// whose `/Annots` holds what the API leaves out and what it must follow (make-fixtures.sh
/// states annotation-objects.pdf's entries).
@Suite("Annotation listing from the objects, on every backend")
struct AnnotationListingTests {
    static let file = Fixtures.path("annotation-objects.pdf")

    /// Both engines list the same annotations, in `/Annots` order, as pypdf (which shares no
    /// code with the project) finds them: the dictionaries that are neither links nor popups.
    @Test func theEnginesListWhatPypdfFinds() async throws {
        let witness = try await Tool.run("python3", ["-c", """
            import sys, pypdf
            for entry in pypdf.PdfReader(sys.argv[1]).pages[0]["/Annots"]:
                annot = entry.get_object()
                if isinstance(annot, dict) and annot.get("/Subtype") not in ("/Link", "/Popup"):
                    print(annot["/Subtype"][1:])
            """, Self.file])
        #expect(witness.status == 0, "\(witness.stderr)")
        let kinds = witness.text.split(separator: "\n").map(String.init)
        #expect(kinds == ["Redact", "FreeText", "Text", "Square", "Text"])
        let listings = try Fixtures.conformanceBackendIDs.map { try Fixtures.open("annotation-objects.pdf", backend: $0).annotations(pageAt: 0) }
        for (backend, listed) in zip(Fixtures.conformanceBackendIDs, listings) {
            #expect(listed.map(\.kind.rawValue) == kinds, "\(backend)")
        }
        #expect(listings[0] == listings[1], "MuPDF and Poppler read every field alike")
    }

    /// Every field is read through references, in page space, with the identities, replies
    /// and styles the file gives.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func fieldsAreReadThroughReferences(backend: String) throws {
        let listed = try Fixtures.open("annotation-objects.pdf", backend: backend).annotations(pageAt: 0)
        try #require(listed.count == 5)
        let (redaction, freeText, note, square, orphan) = (listed[0], listed[1], listed[2], listed[3], listed[4])

        #expect(redaction.id == "p1-Redact-1")
        #expect(redaction.quads == [Quad(
            upperLeft: PagePoint(x: 72, y: 72), upperRight: PagePoint(x: 144, y: 72),
            lowerLeft: PagePoint(x: 72, y: 92), lowerRight: PagePoint(x: 144, y: 92))])
        #expect(redaction.color == Color(red: 1, green: 0, blue: 0), "/C is an indirect array")

        #expect(freeText.id == "free-1")
        #expect(freeText.rect == PageRect(x: 100, y: 242, width: 200, height: 50), "/Rect is an indirect array")
        #expect(freeText.textStyle == TextStyle(fontFamily: .courier, fontSize: 9, color: Color(red: 0, green: 0, blue: 1), alignment: .right))
        #expect(freeText.contents == "hello")

        #expect(note.inReplyTo == "free-1")
        #expect(note.contents == "é")
        #expect(note.author == "Ann")
        #expect(note.iconName == "Comment")
        #expect(note.flags.isSuperset(of: [.print, .noZoom, .noRotate]))

        #expect(square.id == "p1-Square-1")
        #expect(square.interiorColor == Color(red: 0, green: 1, blue: 0))
        #expect(square.borderWidth == 3)

        #expect(orphan.id == "p1-Text-2")
        #expect(orphan.inReplyTo == nil, "the annotation it answers is on no page")
        #expect(orphan.opacity == 0.5)
        #expect(orphan.borderWidth == 2)
    }

    /// Edits find their annotation by its object, so the entries left out of the listing move
    /// nothing; one written inside `/Annots` cannot be edited, and the file loses nothing.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func editsFindTheirObject(backend: String) throws {
        let path = try AnnotationSamples.scratchCopy(of: Self.file)
        let document = try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        var freeText = try document.annotation(withID: "free-1")
        freeText.contents = "changed"
        #expect(try document.updateAnnotation(freeText).contents == "changed")

        var square = try document.annotation(withID: "p1-Square-1")
        square.contents = "no object"
        #expect { try document.updateAnnotation(square) } throws: { ($0 as? RendererError)?.code == .invalidArgument }

        try document.removeAnnotation(withID: "p1-Redact-1")
        try document.save()
        let listed = try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).annotations(pageAt: 0)
        #expect(listed.map(\.id) == ["free-1", "p1-Text-1", "p1-Square-1", "p1-Text-2"])
        #expect(listed[0].contents == "changed")
        #expect(listed[1].inReplyTo == "free-1")
        #expect(listed[2].contents == nil)
    }
}
