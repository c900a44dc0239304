import Foundation
import RendererProvider
import Testing
import TestSupport

/// The plain entries of an annotation's dictionary (text, author, flags, colours, opacity,
/// border) are chosen once, in EngineSupport, and written through each engine's own setter:
/// pypdf finds the same entries in what either engine saved, an entry given no value is
/// removed rather than left as it was, a border's dash survives a new width, and each
/// engine draws from what was written (its own copy of the entries is kept too).
@Suite("Annotation entries written once for every engine")
struct AnnotationEntriesTests {
    /// A square with a dashed border, made by pypdf (neither engine), on page 1 of a copy
    /// of text.pdf: `/NM (dashed)`, `/BS << /W 2 /S /D /D [3 1] >>`, red, at 400 600 500 700
    /// in user space (nowhere near the square the test adds), with an appearance of its own
    /// that fills it red.
    static let dashedSquare = """
        import sys, pypdf
        from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject, TextStringObject, NumberObject
        reader = pypdf.PdfReader(sys.argv[1])
        writer = pypdf.PdfWriter(clone_from=reader)
        fill = DecodedStreamObject()
        fill.set_data(b"1 0 0 rg 0 0 100 100 re f")
        fill.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject([FloatObject(0), FloatObject(0), FloatObject(100), FloatObject(100)])})
        square = DictionaryObject({
            NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Square"),
            NameObject("/Rect"): ArrayObject([FloatObject(400), FloatObject(600), FloatObject(500), FloatObject(700)]),
            NameObject("/NM"): TextStringObject("dashed"), NameObject("/F"): NumberObject(4),
            NameObject("/C"): ArrayObject([FloatObject(1), FloatObject(0), FloatObject(0)]),
            NameObject("/BS"): DictionaryObject({
                NameObject("/W"): FloatObject(2), NameObject("/S"): NameObject("/D"),
                NameObject("/D"): ArrayObject([NumberObject(3), NumberObject(1)])}),
            NameObject("/AP"): DictionaryObject({NameObject("/N"): writer._add_object(fill)}),
        })
        writer.add_annotation(0, square)
        writer.write(sys.argv[1])
        """

    /// The plain entries of each annotation of page 1 that has an `/NM`, as JSON: numbers
    /// as numbers, names and strings as text.
    static let entries = """
        import sys, json, pypdf
        from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NumberObject
        def plain(v):
            v = v.get_object()
            if isinstance(v, ArrayObject): return [plain(x) for x in v]
            if isinstance(v, DictionaryObject): return {k: plain(x) for k, x in v.items()}
            if isinstance(v, (FloatObject, NumberObject)): return round(float(v), 3)
            return str(v)
        found = {}
        for a in pypdf.PdfReader(sys.argv[1]).pages[0].get("/Annots", []):
            a = a.get_object()
            if "/NM" in a:
                found[str(a["/NM"])] = {k: plain(a[k]) for k in ("/Contents", "/T", "/F", "/C", "/IC", "/CA", "/BS", "/Border") if k in a}
        print(json.dumps(found, sort_keys=True))
        """

    static func entries(of path: String) throws -> String {
        let read = try Tool.runBlocking("python3", ["-c", entries, path])
        #expect(read.stderr.isEmpty, "\(read.stderr)")
        return read.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The colour of the page's pixel at `point` (72 dpi, so points are pixels).
    static func color(_ document: Document, at point: (x: Int, y: Int)) async throws -> [UInt8] {
        let bitmap = try await document.render(pageAt: 0, options: RenderOptions(dpi: 72))
        return Array(bitmap.pixel(x: point.x, y: point.y).prefix(3))
    }

    @Test
    func everyEngineWritesTheSameEntriesAndRemovesWhatHasNoValue() async throws {
        var added: [String: String] = [:]
        var changed: [String: String] = [:]
        for backend in Fixtures.backendIDs {
            let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
            let made = try Tool.runBlocking("python3", ["-c", Self.dashedSquare, path])
            #expect(made.status == 0, "\(made.stderr)")
            let document = try await Fixtures.registry.open(.file(path), renderer: .id(backend))
            let inside = (x: 200, y: 150)
            #expect(try await Self.color(document, at: inside).allSatisfy { $0 > 250 }, "\(backend): the page is blank there")
            // Page space: 792 points high.
            let insideDashed = (x: 450, y: 792 - 650)
            #expect(try await Self.color(document, at: insideDashed) == [255, 0, 0], "\(backend) draws pypdf's appearance")

            var square = Annotation(
                id: "box", kind: .square, pageIndex: 0, rect: PageRect(x: 100, y: 100, width: 200, height: 100),
                color: Color(red: 1, green: 0, blue: 0), interiorColor: Color(red: 0, green: 0, blue: 1), opacity: 0.5, borderWidth: 3,
                contents: "Boîte", author: "Ann")
            square = try await document.addAnnotation(square)
            // Half-opaque blue over white, as the engine draws it from what was written.
            let tint = try await Self.color(document, at: inside)
            #expect(tint[2] > 200 && (90...170).contains(tint[0]) && (90...170).contains(tint[1]), "\(backend) drew \(tint)")
            try document.save()
            added[backend] = try Self.entries(of: path)

            square.color = nil
            square.interiorColor = nil
            square.opacity = 1
            square.borderWidth = nil
            square.contents = nil
            square.author = nil
            square.flags = [.print, .hidden]
            let back = try await document.updateAnnotation(square)
            #expect(back.color == nil && back.interiorColor == nil && back.borderWidth == nil && back.contents == nil && back.author == nil)
            #expect(back.opacity == 1 && back.flags == [.print, .hidden])
            // Hidden: the engine's own view of the flags is the one written.
            #expect(try await Self.color(document, at: inside).allSatisfy { $0 > 250 }, "\(backend) still draws a hidden square")

            var dashed = try document.annotation(withID: "dashed")
            dashed.borderWidth = 5
            dashed.color = Color(red: 0, green: 1, blue: 0)
            #expect(try await document.updateAnnotation(dashed).borderWidth == 5)
            // A new colour is drawn anew: the engine's copy of the colour is the one written,
            // and pypdf's appearance, which drew the old one, is gone.
            #expect(try await Self.color(document, at: insideDashed).allSatisfy { $0 > 250 }, "\(backend) still draws the old appearance")
            try document.save()
            changed[backend] = try Self.entries(of: path)
        }
        #expect(
            added["mupdf"]
                == #"{"box": {"/BS": {"/W": 3.0}, "/C": [1.0, 0.0, 0.0], "/CA": 0.5, "/Contents": "Bo\u00eete", "/F": 4.0, "/IC": [0.0, 0.0, 1.0], "/T": "Ann"}, "dashed": {"/BS": {"/D": [3.0, 1.0], "/S": "/D", "/W": 2.0}, "/C": [1.0, 0.0, 0.0], "/F": 4.0}}"#,
            "\(added)")
        #expect(
            changed["mupdf"]
                == #"{"box": {"/F": 6.0}, "dashed": {"/BS": {"/D": [3.0, 1.0], "/S": "/D", "/W": 5.0}, "/C": [0.0, 1.0, 0.0], "/F": 4.0}}"#,
            "\(changed)")
        #expect(added["poppler"] == added["mupdf"])
        #expect(changed["poppler"] == changed["mupdf"])
    }
}
