import Foundation
import RendererProvider
import Testing
import TestSupport

/// Form fields filled, reset and flattened through each backend, read back through the other
/// backend, qpdf and the engines' text tools.
@Suite("Form filling, on every backend")
struct FormFillingTests {
    static let values: [String: [String]] = [
        "name": ["Marie Curie"], "address": ["1 Rue Pierre\nParis"], "person.first": ["Émilie"], "subscribe": ["Off"],
        "size": ["L"], "colors": ["green", "blue"], "country": ["France"],
    ]

    static func other(than backend: String) -> String {
        Fixtures.conformanceBackendIDs.first { $0 != backend } ?? backend
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func everyKindIsFilledAndReadBackElsewhere(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        let output = directory.appendingPathComponent("filled.pdf").path
        let document = try Fixtures.open("forms.pdf", backend: backend)
        try document.fillForm(Self.values)
        let expected: [String: [String]] = [
            "name": ["Marie Curie"], "address": ["1 Rue Pierre\nParis"], "person.first": ["Émilie"], "subscribe": ["Off"],
            "size": ["L"], "colors": ["green", "b"], "country": ["fr"],
        ]
        func check(_ fields: [FormField], _ reader: String) {
            let byName = Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            for (name, values) in expected { #expect(byName[name]?.values == values, "\(name) read by \(reader)") }
            #expect(byName["person.last"]?.value == "Hopper" && byName["id"]?.value == "42", "untouched fields, \(reader)")
        }
        check(try document.formFields(), backend)
        try document.saveCopy(to: output)
        await check(try Fixtures.conformanceRegistry.open(.file(output), renderer: .id(Self.other(than: backend))).formFields(), "the other engine")
        let qpdf = try await FormFieldTests.qpdf(output)
        #expect(qpdf["name"]?.value == ["Marie Curie"] && qpdf["size"]?.value == ["L"] && qpdf["subscribe"]?.value == ["Off"])
        #expect(try await Tool.run("qpdf", ["--check", output]).status == 0)
        // The multi-select list holds the chosen options' indices in /Opt (red, green, b), in
        // order; the combo box, which chooses one, holds none.
        let indices = try await Tool.run("python3", ["-c", """
            import sys, pypdf
            for field in pypdf.PdfReader(sys.argv[1]).trailer["/Root"]["/AcroForm"]["/Fields"]:
                field = field.get_object()
                if field.get("/T") in ("colors", "country"):
                    print(field["/T"], list(field.get("/I", [])))
            """, output])
        #expect(indices.text.split(separator: "\n").sorted() == ["colors [1, 2]", "country []"], "\(indices.text)\(indices.stderr)")
        // The new text is drawn: the widget's new appearance holds it.
        let drawn = try await Tool.run("mutool", ["draw", "-q", "-F", "txt", "-o", "-", output, "1"]).stdout
        #expect(String(decoding: drawn, as: UTF8.self).contains("Marie Curie"))
    }

    /// form-kids.pdf (make-fixtures.sh): fields whose widgets are kids without /T, one of
    /// them on two pages (pdf.js's form_two_pages.pdf has that shape). The values land on the
    /// fields, where qpdf and pypdf read them, not on the kids; every widget is drawn anew,
    /// on both pages.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func fieldsWhoseWidgetsAreKidsAreFilledOnEveryPage(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Fixtures.open("form-kids.pdf", backend: backend)
        let blank = try (0..<2).map { try before.render(pageAt: $0, options: RenderOptions(dpi: 72)) }
        let document = try Fixtures.open("form-kids.pdf", backend: backend)
        try document.fillForm(["Text1": ["First"], "Shared": ["Twice"], "Agree": ["Yes"]])
        let output = directory.appendingPathComponent("filled.pdf").path
        try document.saveCopy(to: output)

        let qpdf = try await FormFieldTests.qpdf(output)
        #expect(qpdf["Text1"]?.value == ["First"] && qpdf["Shared"]?.value == ["Twice"] && qpdf["Agree"]?.value == ["Yes"], "\(qpdf)")
        #expect(qpdf["Shared"]?.pages == [0, 1])
        let script = """
            import sys, pypdf
            reader = pypdf.PdfReader(sys.argv[1])
            for name, field in sorted(reader.get_fields().items()):
                print(name, field.get("/V"))
            for page in reader.pages:
                for annotation in page.get("/Annots", []):
                    print("kid value", annotation.get_object().get("/V"))
            """
        let read = try await Tool.run("python3", ["-c", script, output])
        #expect(read.text == "Agree /Yes\nShared Twice\nText1 First\n" + String(repeating: "kid value None\n", count: 4), "\(read.text)\(read.stderr)")
        #expect(try await Tool.run("qpdf", ["--check", output]).status == 0)

        // Each widget shows its value: the pixels in every widget's rectangle change, on both pages.
        let filled = try await Fixtures.conformanceRegistry.open(.file(output), renderer: .id(backend))
        let rects: [(page: Int, rect: PageRect)] = [
            (0, PageRect(x: 72, y: 72, width: 228, height: 20)), (0, PageRect(x: 72, y: 122, width: 228, height: 20)),
            (1, PageRect(x: 72, y: 72, width: 228, height: 20)), (1, PageRect(x: 72, y: 178, width: 14, height: 14)),
        ]
        for (page, rect) in rects {
            let after = try await filled.render(pageAt: page, options: RenderOptions(dpi: 72))
            let changed = (Int(rect.minY)..<Int(rect.maxY)).contains { y in
                (Int(rect.minX)..<Int(rect.maxX)).contains { x in after.pixel(x: x, y: y) != blank[page].pixel(x: x, y: y) }
            }
            #expect(changed, "page \(page + 1), widget at \(rect)")
        }
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func valuesAreCheckedAndNothingIsSetOnAnError(backend: String) throws {
        let document = try Fixtures.open("forms.pdf", backend: backend)
        let refused: [([String: [String]], RendererError.Code)] = [
            (["id": ["7"]], .notPermitted),
            (["name": [String(repeating: "x", count: 41)]], .invalidArgument),
            (["name": ["two\nlines"]], .invalidArgument),
            (["subscribe": ["On"]], .invalidArgument),
            (["colors": ["purple"]], .invalidArgument),
            (["size": ["XL"]], .invalidArgument),
            (["submit": ["x"]], .invalidArgument),
            (["no.such.field": ["x"]], .invalidArgument),
            (["name": ["Fine"], "colors": ["purple"]], .invalidArgument),
            (["country": ["es", "fr"]], .invalidArgument),
        ]
        for (values, code) in refused {
            #expect(throws: RendererError.self, "\(values)") { try document.fillForm(values) }
            do { try document.fillForm(values) } catch let error as RendererError { #expect(error.code == code, "\(values)") }
        }
        let name = try document.formFields().first { $0.name == "name" }
        #expect(name?.value == "Ada Lovelace")
        #expect(document.hasUnsavedChanges == false)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func resetGivesDefaultsOrClears(backend: String) throws {
        let document = try Fixtures.open("forms.pdf", backend: backend)
        try document.fillForm(["name": ["Someone"]])
        try document.resetForm()
        let byName = Dictionary(try document.formFields().map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byName["name"]?.value == "Nobody")
        #expect(byName["person.first"]?.value == "" && byName["colors"]?.values == [] && byName["subscribe"]?.value == "Off")
        #expect(byName["id"]?.value == "42", "read-only fields keep their values")
        #expect(throws: RendererError.self) { try document.resetForm(fields: ["id"]) }
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func flatteningDrawsTheValuesIntoThePage(backend: String) async throws {
        let document = try Fixtures.open("forms.pdf", backend: backend)
        guard document.renderer.capabilities.contains(.flattenForms) else {
            #expect(throws: RendererError.self) { try document.flattenForm() }
            return
        }
        let output = try Tool.temporaryDirectory().appendingPathComponent("flat.pdf").path
        try document.fillForm(["name": ["Flattened Value"]])
        try document.flattenForm()
        #expect(try document.formFields() == [] && document.formKind() == .none)
        try document.saveCopy(to: output)
        #expect(try await Tool.run("qpdf", ["--check", output]).status == 0)
        let text = String(decoding: try await Tool.run("pdftotext", [output, "-"]).stdout, as: UTF8.self)
        // Widgets are drawn as they show: the fixture's untouched fields have empty appearances.
        #expect(text.contains("Flattened Value") && text.contains("A form with a field of each kind") && !text.contains("Hopper"))
        let other = try await Fixtures.conformanceRegistry.open(.file(output), renderer: .id(Self.other(than: backend)))
        #expect(try other.formFields() == [] && other.formKind() == .none)
    }

    /// form-kids.pdf keeps its AcroForm in the catalog and a checkbox's states in a direct
    /// dictionary: each of the four widgets (the checkbox's by its /AS state) is drawn into
    /// its page once, and qpdf, reading the saved file, finds four drawings and no form.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func flatteningDrawsEveryWidgetOnce(backend: String) async throws {
        let document = try Fixtures.open("form-kids.pdf", backend: backend)
        try document.flattenForm()
        #expect(try document.formFields() == [] && document.formKind() == .none)
        let output = try Tool.temporaryDirectory().appendingPathComponent("flat-kids.pdf").path
        try document.saveCopy(to: output)
        #expect(try await Tool.run("qpdf", ["--check", output]).status == 0)
        let qdf = try await Tool.run("qpdf", ["--qdf", "--object-streams=disable", output, "-"]).text
        #expect(qdf.components(separatedBy: " Do Q").count - 1 == 4, "four widgets drawn")
        #expect(!qdf.contains("/AcroForm") && !qdf.contains("/Widget"), "no form, and no widget the pages reach")
        #expect(try await FormFieldTests.qpdf(output).isEmpty)
    }

    /// Widgets an unfriendly author made (pypdf, onto text.pdf's first page): one sound, one
    /// whose appearance's /BBox is empty, one whose /Matrix is all zeros, one whose /Rect has
    /// no width, and one whose /BBox is a thousandth of a point wide. Flattening draws the
    /// sound one and the tiny one (scaled up), leaves out the three that cannot be placed,
    /// writes no number that is not one, and the file stays valid for qpdf and the other engine.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func flatteningLeavesOutWidgetsThatCannotBePlaced(backend: String) async throws {
        let input = try await PypdfEdit.copy(of: Fixtures.path("text.pdf"), named: "degenerate.pdf", """
            page = writer.pages[0]
            array = lambda values: ArrayObject([FloatObject(v) if isinstance(v, float) else NumberObject(v) for v in values])
            fields = ArrayObject()
            for name, rect, box, matrix in [
                ("sound", [10, 10, 110, 40], [0, 0, 100, 30], None),
                ("emptybox", [10, 50, 110, 80], [0, 0, 0, 0], None),
                ("flatmatrix", [10, 90, 110, 120], [0, 0, 100, 30], [0, 0, 0, 0, 0, 0]),
                ("noarea", [50, 130, 50, 160], [0, 0, 100, 30], None),
                ("tiny", [10, 170, 110, 200], [0, 0, 0.001, 0.001], None),
            ]:
                appearance = StreamObject()
                appearance.set_data(b"0 0 1 rg 0 0 100 30 re f")
                appearance.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"), NameObject("/BBox"): array(box)})
                if matrix:
                    appearance[NameObject("/Matrix")] = array(matrix)
                widget = DictionaryObject({
                    NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Widget"),
                    NameObject("/FT"): NameObject("/Btn"), NameObject("/Ff"): NumberObject(65536), NameObject("/T"): TextStringObject(name),
                    NameObject("/Rect"): array(rect), NameObject("/AP"): DictionaryObject({NameObject("/N"): writer._add_object(appearance)}),
                    NameObject("/P"): page.indirect_reference})
                fields.append(writer._add_object(widget))
            page[NameObject("/Annots")] = ArrayObject(fields)
            writer._root_object[NameObject("/AcroForm")] = DictionaryObject({NameObject("/Fields"): fields})
            """)
        defer { input.remove() }
        let document = try await Fixtures.conformanceRegistry.open(.file(input.path), renderer: .id(backend))
        try #require(try document.formFields().count == 5)
        let text = try await document.text(pageAt: 0)
        try document.flattenForm()
        #expect(try document.formFields() == [] && document.formKind() == .none)
        let output = input.folder.appendingPathComponent("flat.pdf").path
        try document.saveCopy(to: output)
        #expect(try await Tool.run("qpdf", ["--check", output]).status == 0)
        let qdf = try await Tool.run("qpdf", ["--qdf", "--object-streams=disable", output, "-"]).text
        let placements = qdf.split(separator: "\n").filter { $0.contains(" cm /FlatWidget") }
        #expect(placements.count == 2, "the sound and the tiny widget drawn: \(placements)")
        let operands = placements.flatMap { $0.split(separator: " ").dropFirst().prefix(6) }
        #expect(operands.count == 12 && operands.allSatisfy { $0.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?/) != nil }, "every number is one: \(placements)")
        let other = try await Fixtures.conformanceRegistry.open(.file(output), renderer: .id(Self.other(than: backend)))
        #expect(try await other.text(pageAt: 0) == text)
        #expect(try other.formKind() == .none)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func formKinds(backend: String) async throws {
        #expect(try Fixtures.open("forms.pdf", backend: backend).formKind() == .acroForm)
        #expect(try Fixtures.open("text.pdf", backend: backend).formKind() == .none)
        // A dynamic XFA form: no AcroForm fields to list, and filling is refused.
        let xfa = try Fixtures.open("xfa-only.pdf", backend: backend)
        #expect(try xfa.formKind() == .xfaOnly && xfa.formFields() == [])
        #expect((#expect(throws: RendererError.self) { try xfa.fillForm(["applicant": ["Lin"]]) })?.code == .unsupported)
        #expect(xfa.hasUnsavedChanges == false)
        // A static XFA form: its AcroForm twin is listed and filled, the XFA left alone.
        let hybrid = try Fixtures.open("xfa-hybrid.pdf", backend: backend)
        #expect(try hybrid.formKind() == .acroFormWithXFA)
        try hybrid.fillForm(["applicant": ["Wu"]])
        let output = try Tool.temporaryDirectory().appendingPathComponent("hybrid.pdf").path
        try hybrid.saveCopy(to: output)
        #expect(try await FormFieldTests.qpdf(output)["applicant"]?.value == ["Wu"])
        #expect(try await Fixtures.conformanceRegistry.open(.file(output), renderer: .id(Self.other(than: backend))).formKind() == .acroFormWithXFA)
    }
}
