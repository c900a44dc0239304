import Foundation
import RendererProvider
import Testing
import TestSupport

/// Pages inserted, deleted, moved, rotated, merged and split through the API, each result
/// saved and read by both engines, `qpdf --check`, `pdfinfo` and `pdftotext`.
@Suite("Page editing")
struct PageEditingTests {
    /// The text of each page of `path`, as pdftotext reads it, trimmed.
    static func pageTexts(_ path: String) async throws -> [String] {
        String(decoding: try await Tool.run("pdftotext", ["-layout", path, "-"]).stdout, as: UTF8.self)
            .split(separator: "\u{0C}", omittingEmptySubsequences: false).dropLast()
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Each page's size ("W x H") and rotation as pdfinfo prints them.
    static func pdfinfoPages(_ path: String) async throws -> [(size: String, rotation: String)] {
        let lines = try await Tool.run("pdfinfo", ["-f", "1", "-l", "999", path]).text.split(separator: "\n")
        func values(_ key: String) -> [String] {
            lines.filter { $0.hasPrefix("Page ") && $0.contains(" \(key): ") }.map { line in
                let words = line.split(separator: ":", maxSplits: 1)[1].split(separator: " ")
                return key == "size" ? words.prefix(3).joined(separator: " ") : String(words[0])
            }
        }
        return Array(zip(values("size"), values("rot"))).map { (size: $0.0, rotation: $0.1) }
    }

    /// Saves `document` to a new file, checks it with qpdf and opens it with both engines,
    /// which must agree on its page count and outline; returns the path.
    static func saveAndCheck(_ document: Document, _ name: String) async throws -> String {
        let path = try Tool.temporaryDirectory().appendingPathComponent(name).path
        try document.saveCopy(to: path)
        #expect(try await Tool.run("qpdf", ["--check", path]).status == 0, "\(name): qpdf --check")
        let readers = try Fixtures.conformanceBackendIDs.map { try Fixtures.conformanceRegistry.open(.file(path), renderer: .id($0)) }
        for reader in readers {
            #expect(reader.pageCount == document.pageCount, "\(name) read by \(reader.renderer.id)")
            #expect(try reader.outline() == readers[0].outline(), "\(name): the engines read the same outline")
        }
        return path
    }

    /// The engines that edit pages: MuPDF through its own calls, Poppler over the PDF-object
    /// primitives; both copy pages from another PDF over them.
    static let editingBackends = ["mupdf", "poppler"]

    @Test(arguments: editingBackends)
    func blankPagesAreInsertedWhereAsked(backend: String) async throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        try document.insertBlankPage(at: 1, size: PageSize(width: 300, height: 400))
        try document.insertBlankPage(at: 4, size: PageSize(width: 595, height: 842))
        #expect(document.pageCount == 5)
        #expect(try document.pageInfo(pageAt: 1).size == PageSize(width: 300, height: 400))
        let path = try await Self.saveAndCheck(document, "blank.pdf")
        let texts = try await Self.pageTexts(path)
        #expect(texts.count == 5 && texts[1].isEmpty && texts[4].isEmpty && texts[2] == "Renderer provider fixture page two", "\(texts)")
        #expect(try await Self.pdfinfoPages(path)[1].size == "300 x 400", "pdfinfo reads the size")
    }

    @Test(arguments: editingBackends)
    func deletingDropsWhatPointedToTheDeletedPages(backend: String) async throws {
        let document = try Fixtures.open("outline.pdf", backend: backend)
        let report = try document.deletePages([2])
        // outline.pdf: Section 1.2 and the third link go (by the name sec12) to page 3.
        #expect(report == PageEditReport(links: 1, outlineItems: 1, namedDestinations: 1))
        let path = try await Self.saveAndCheck(document, "deleted.pdf")
        let reread = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id("poppler"))
        let titles = try reread.outline().flatMap { [$0.title] + $0.children.map(\.title) }
        #expect(titles == ["Chapter 1", "Section 1.1", "Chapter 2", "Section 2.1", "Website"])
        let links = try reread.links(pageAt: 0)
        #expect(links.count == 2 && links.contains { $0.destination.pageIndex == 2 }, "the link to the old page 4 follows it to page 3")
        #expect(try await Self.pageTexts(path) == ["Outline page 1", "Outline page 2", "Outline page 4"])
    }

    /// form-kids.pdf keeps its AcroForm and /Fields direct in the catalog: "Agree" has its one
    /// widget on page 2 and goes with it; "Shared" loses its widget there and keeps the one on
    /// page 1. qpdf, reading the saved file, is the witness.
    @Test(arguments: editingBackends)
    func deletingAPageDropsTheFieldsWhollyOnIt(backend: String) async throws {
        let document = try Fixtures.open("form-kids.pdf", backend: backend)
        #expect(try document.deletePages([1]) == PageEditReport(formFields: 1))
        let path = try await Self.saveAndCheck(document, "fields.pdf")
        for reader in Fixtures.conformanceBackendIDs {
            let fields = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(reader)).formFields()
            #expect(fields.map(\.name) == ["Text1", "Shared"], "\(reader)")
            #expect(fields.map(\.widgets.count) == [1, 1], "\(reader)")
        }
        let json = try await Tool.run("qpdf", ["--json", "--json-key=acroform", path])
        let form = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        let names = ((form?["acroform"] as? [String: Any])?["fields"] as? [[String: Any]])?.compactMap { $0["fullname"] as? String }
        #expect(names == ["Text1", "Shared"], "qpdf lists one widget of each kept field")
    }

    @Test(arguments: editingBackends)
    func movedPagesKeepTheirDestinations(backend: String) async throws {
        let document = try Fixtures.open("outline.pdf", backend: backend)
        try document.movePage(from: 3, to: 0)
        let path = try await Self.saveAndCheck(document, "moved.pdf")
        #expect(try await Self.pageTexts(path) == ["Outline page 4", "Outline page 1", "Outline page 2", "Outline page 3"])
        let outline = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id("poppler")).outline()
        #expect(outline.map { $0.destination?.pageIndex } == [1, 0, nil])
        #expect(outline[0].children.map { $0.destination?.pageIndex } == [2, 3], "Section 1.2, by name, follows page 3 to index 3")
    }

    @Test(arguments: editingBackends)
    func rotationIsWrittenAsRotate(backend: String) async throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        try document.rotatePage(at: 0, by: 90)
        try document.rotatePage(at: 0, by: 90)
        try document.rotatePage(at: 2, to: .threeQuarters)
        try document.rotatePage(at: 1, by: -90)
        #expect(try document.pageInfos().map(\.rotation) == [.half, .threeQuarters, .threeQuarters])
        #expect((#expect(throws: RendererError.self) { try document.rotatePage(at: 0, by: 45) })?.code == .invalidArgument)
        let path = try await Self.saveAndCheck(document, "rotated.pdf")
        #expect(try await Self.pdfinfoPages(path).map(\.rotation) == ["180", "270", "270"], "pdfinfo reads /Rotate")
    }

    @Test(arguments: editingBackends)
    func mergedPagesBringTheirAnnotationsLinksAndOutline(backend: String) async throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        let report = try document.insertPages(from: .file(Fixtures.path("outline.pdf")), pages: [3, 0], at: 1)
        // Copied: page 4 (Chapter 2, Section 2.1) and page 1 (Chapter 1, its links). Not
        // copied: pages 2 and 3, so Section 1.1, Section 1.2 and the link by name to page 3 drop.
        #expect(report == PageEditReport(links: 1, outlineItems: 2))
        #expect(document.pageCount == 5)
        let path = try await Self.saveAndCheck(document, "merged.pdf")
        #expect(try await Self.pageTexts(path) == [
            "The quick brown fox jumps over the lazy dog", "Outline page 4", "Outline page 1", "Renderer provider fixture page two", "Third page",
        ])
        let reread = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id("poppler"))
        let outline = try reread.outline()
        #expect(outline.map(\.title) == ["Chapter 1", "Chapter 2", "Website"])
        #expect(outline.map { $0.destination?.pageIndex } == [2, 1, nil])
        #expect(outline[1].children.map { $0.destination?.pageIndex } == [1])
        let links = try reread.links(pageAt: 2)
        #expect(links.count == 2 && links.contains { $0.destination.pageIndex == 1 }, "the link to page 4 goes to its copy")

        let annotated = try Fixtures.open("text.pdf", backend: backend)
        let kinds = try await Fixtures.open("annotations.pdf", backend: backend).annotations().map(\.kind)
        #expect(try annotated.insertPages(from: .file(Fixtures.path("annotations.pdf"))) == PageEditReport())
        let copied = try await Fixtures.conformanceRegistry.open(.file(Self.saveAndCheck(annotated, "annotated.pdf")), renderer: .id("poppler")).annotations(pageAt: 3)
        let copiedKinds: [String] = copied.map(\.kind.rawValue).sorted(), expectedKinds: [String] = kinds.map(\.rawValue).sorted()
        #expect(copiedKinds == expectedKinds)
    }

    @Test(arguments: editingBackends)
    func splitWritesTheChosenPagesAndLeavesTheDocument(backend: String) async throws {
        let document = try Fixtures.open("outline.pdf", backend: backend)
        let path = try Tool.temporaryDirectory().appendingPathComponent("part.pdf").path
        let report = try document.extractPages([3, 0], to: path)
        #expect(report == PageEditReport(links: 1, outlineItems: 2, namedDestinations: 1))
        #expect(document.pageCount == 4 && document.hasUnsavedChanges == false)
        #expect(try await Tool.run("qpdf", ["--check", path]).status == 0)
        #expect(try await Self.pageTexts(path) == ["Outline page 4", "Outline page 1"])
        for backend in Fixtures.conformanceBackendIDs {
            let part = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
            #expect(part.pageCount == 2)
            #expect(try part.outline().map { $0.destination?.pageIndex } == [1, 0, nil], "\(backend)")
        }
        // Nothing of the other pages is in the file.
        let qpdf = try await Tool.run("qpdf", ["--qdf", "--object-streams=disable", path, "-"]).text
        #expect(!qpdf.contains("Outline page 2") && !qpdf.contains("Outline page 3"))
    }

    /// Poppler's edits are made object by object; one that fails midway leaves nothing of
    /// itself. In this copy of text.pdf (pypdf makes it; mutool witnesses it) page 2 names no
    /// /Parent: deleting pages 1 and 2 takes page 1 out of the tree, then finds page 2's place
    /// unknown, and the document is as it was: three pages, their text, nothing to save.
    @Test func aPopplerEditThatFailsMidwayLeavesTheDocumentAsItWas() async throws {
        let made = try await PypdfEdit.copy(of: Fixtures.path("text.pdf"), named: "no-parent.pdf", #"del writer.pages[1][NameObject("/Parent")]"#)
        defer { made.remove() }
        let copy = made.path
        try #require(!(try await Tool.run("mutool", ["show", copy, "trailer/Root/Pages/Kids/2"]).text.contains("/Parent")))
        let document = try await Fixtures.conformanceRegistry.open(.file(copy), renderer: .id("poppler"))
        let texts = try (0..<3).map { try document.text(pageAt: $0) }
        let error = #expect(throws: RendererError.self) { try document.deletePages([0, 1]) }
        #expect(error?.code == .damaged, "\(error?.message ?? "")")
        #expect(document.pageCount == 3 && document.hasUnsavedChanges == false)
        #expect(try (0..<3).map { try document.text(pageAt: $0) } == texts)
        try document.rotatePage(at: 0, to: .quarter)
        #expect(try document.pageInfo(pageAt: 0).rotation == .quarter && document.pageCount == 3, "the document still edits")
    }

    @Test(arguments: editingBackends)
    func badRequestsChangeNothing(backend: String) throws {
        let document = try Fixtures.open("outline.pdf", backend: backend)
        let refused: [(String, RendererError.Code, () throws -> Void)] = [
            ("delete every page", .invalidArgument, { _ = try document.deletePages([0, 1, 2, 3]) }),
            ("delete past the end", .pageOutOfRange, { _ = try document.deletePages([4]) }),
            ("move past the end", .pageOutOfRange, { try document.movePage(from: 0, to: 4) }),
            ("insert past the end", .pageOutOfRange, { try document.insertBlankPage(at: 5, size: PageSize(width: 100, height: 100)) }),
            ("an absurd size", .invalidArgument, { try document.insertBlankPage(at: 0, size: PageSize(width: 1e9, height: 100)) }),
            ("a negative size", .invalidArgument, { try document.insertBlankPage(at: 0, size: PageSize(width: -1, height: 100)) }),
            ("merge from a damaged page tree", .damaged, { _ = try document.insertPages(from: .file(Fixtures.path("truncated.pdf"))) }),
            ("merge from a text file", .unsupportedFormat, { _ = try document.insertPages(from: .file(Fixtures.path("not-a-pdf.pdf"))) }),
            ("merge without the password", .passwordRequired, { _ = try document.insertPages(from: .file(Fixtures.path("encrypted.pdf"))) }),
            ("merge with a wrong password", .wrongPassword, { _ = try document.insertPages(from: .file(Fixtures.path("encrypted.pdf")), password: "no") }),
            ("merge what the source forbids copying", .notPermitted, {
                _ = try document.insertPages(from: .file(Fixtures.path("encrypted.pdf")), password: "user-secret")
            }),
            ("merge an image", .unsupported, { _ = try document.insertPages(from: .file(Fixtures.path("image.png"))) }),
            ("merge a page not there", .pageOutOfRange, { _ = try document.insertPages(from: .file(Fixtures.path("text.pdf")), pages: [3]) }),
            ("split a page twice", .invalidArgument, { _ = try document.extractPages([0, 0], to: "/tmp/never-written.pdf") }),
        ]
        for (name, code, request) in refused {
            let error = #expect(throws: RendererError.self, "\(name)") { try request() }
            #expect(error?.code == code, "\(name): \(error?.message ?? "")")
        }
        #expect(document.pageCount == 4 && document.hasUnsavedChanges == false)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.pdf"))
        // The owner password allows copying from encrypted.pdf.
        #expect(try document.insertPages(from: .file(Fixtures.path("encrypted.pdf")), password: "owner-secret", pages: [0]) == PageEditReport())
        #expect(document.pageCount == 5)
        #expect(try document.text(pageAt: 4).contains("The quick brown fox"), "the copied page's streams were decrypted")
    }

    /// A source an unfriendly author made (pypdf, from text.pdf): page 1 holds a form XObject
    /// whose resources name itself, a cycle of streams no valid file has, and its two first
    /// pages share one font. Copying page 1 twice and page 3 ends, copies each object once
    /// (one font, one form), and leaves the form's reference to itself null; qpdf checks the
    /// result and pdftotext reads the copies.
    @Test(arguments: editingBackends)
    func mergingCopiesEachObjectOnceAndEndsACycle(backend: String) async throws {
        let made = try await PypdfEdit.copy(of: Fixtures.path("text.pdf"), named: "cycle.pdf", """
            form = StreamObject()
            form.set_data(b"q Q")
            form.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
                         NameObject("/BBox"): ArrayObject([NumberObject(0), NumberObject(0), NumberObject(10), NumberObject(10)])})
            reference = writer._add_object(form)
            form[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): DictionaryObject({NameObject("/Loop"): reference})})
            writer.pages[0]["/Resources"][NameObject("/XObject")] = DictionaryObject({NameObject("/Loop"): reference})
            """)
        defer { made.remove() }
        let source = made.path
        // Distinct fonts and forms of the pages (all, or those listed), and whether a form's
        // /Loop still refers to something.
        let count = """
            import sys, pypdf
            from pypdf.generic import DictionaryObject, IndirectObject
            reader = pypdf.PdfReader(sys.argv[1])
            pages = [reader.pages[int(i)] for i in sys.argv[2].split(",")] if len(sys.argv) > 2 else reader.pages
            entries = lambda value: value.get_object() if value is not None else DictionaryObject()
            fonts, forms, loops = set(), set(), False
            for page in pages:
                resources = page["/Resources"]
                fonts |= {value.idnum for value in entries(resources.get("/Font")).values()}
                for value in entries(resources.get("/XObject")).values():
                    forms.add(value.idnum)
                    loops |= isinstance(value.get_object()["/Resources"]["/XObject"].get("/Loop"), IndirectObject)
            print(len(fonts), len(forms), loops)
            """
        let counts = { (arguments: [String]) async throws -> [String] in
            try await Tool.run("python3", ["-c", count] + arguments).text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        let sourceCounts = try await counts([source, "0,2"])
        #expect(sourceCounts == ["1", "1", "True"], "the source is as built: \(sourceCounts)")
        let outlineFonts = Int(try await counts([Fixtures.path("outline.pdf")])[0]) ?? -1
        let document = try Fixtures.open("outline.pdf", backend: backend)
        #expect(try document.insertPages(from: .file(source), pages: [0, 0, 2]) == PageEditReport())
        #expect(document.pageCount == 7)
        let path = try await Self.saveAndCheck(document, "cycle-merged.pdf")
        let fox = "The quick brown fox jumps over the lazy dog"
        #expect(try await Self.pageTexts(path).suffix(3) == [fox, fox, "Third page"])
        #expect(try await counts([path]) == ["\(outlineFonts + 1)", "1", "False"], "one more font, one form, its loop null")

        // font-loops.pdf (make-fixtures.sh): a form and a Type 3 font that name themselves; the
        // copy draws the same text.
        let loops = try Fixtures.open("text.pdf", backend: backend)
        try loops.insertPages(from: .file(Fixtures.path("font-loops.pdf")))
        let drawn = try await Fixtures.open("font-loops.pdf", backend: backend).text(pageAt: 0)
        #expect(try await loops.text(pageAt: 3) == drawn)
        _ = try await Self.saveAndCheck(loops, "font-loops-merged.pdf")
        // broken-page-tree.pdf counts 5 pages over 3 kids: copying them all fails at the
        // fourth, before anything is copied.
        #expect(throws: RendererError.self) { try loops.insertPages(from: .file(Fixtures.path("broken-page-tree.pdf"))) }
        #expect(loops.pageCount == 4)
    }
}

extension Destination {
    /// The page a destination in the document goes to; nil for one outside it.
    fileprivate var pageIndex: Int? {
        if case .page(let index, _, _) = self { return index }
        return nil
    }
}
