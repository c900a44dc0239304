import Foundation
import RendererProvider
import Testing
import TestSupport

/// Outline and link editing on every backend, written once over each engine's PDF-object
/// primitives, with `mutool show`, pypdf and qpdf as witnesses of what was saved, and the
/// other engine reading it back.
@Suite("Outline and link editing, on every backend")
struct OutlineEditingTests {
    /// An outline with every field the API writes: destinations of three kinds, a page turned
    /// a quarter, colours, bold and italic, open and closed items, a title outside ASCII.
    static let outline: [OutlineItem] = [
        OutlineItem(
            title: "Introduction", destination: .page(index: 0, point: PagePoint(x: 72, y: 100)), isOpen: true,
            children: [
                OutlineItem(title: "Über “quotes” ☃", destination: .page(index: 1, point: PagePoint(x: 50, y: 60)), isItalic: true),
                OutlineItem(title: "Fit the page", destination: .page(index: 2, point: nil, view: DestinationView(fit: .fit))),
            ],
            color: Color(red: 1, green: 0, blue: 0), isBold: true),
        OutlineItem(title: "Website", destination: .uri("https://example.org/a?b=c"), color: Color(red: 0, green: 0.5, blue: 1)),
        OutlineItem(
            title: "Closed", destination: .page(index: 3, point: PagePoint(x: 10, y: 20)), isOpen: false,
            children: [OutlineItem(title: "Hidden", destination: nil, isBold: true, isItalic: true)]),
    ]

    /// What `mutool show outline` prints for ``outline`` written into rotated.pdf, whose pages
    /// are turned 0, 90, 180 and 270 degrees: MuPDF's own reading of the saved objects.
    static let mutoolOutline = [
        "-\t\"Introduction\"\t#page=1&zoom=nan,72,100",
        "|\t\t\"Über “quotes” ☃\"\t#page=2&zoom=nan,50,60",
        "|\t\t\"Fit the page\"\t#page=3&view=Fit",
        "|\t\"Website\"\thttps://example.org/a?b=c",
        "+\t\"Closed\"\t#page=4&zoom=nan,10,20",
        "|\t\t\"Hidden\"\t(null)",
    ]

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func anOutlineIsSavedAsOtherReadersReadIt(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("saved.pdf").path
        let document = try Fixtures.open("rotated.pdf", backend: backend)
        #expect(try document.setOutline(Self.outline).isEmpty)
        #expect(Self.rounded(try document.outline()) == Self.outline)
        try document.save(to: saved)
        #expect(try await Tool.run("qpdf", ["--check", saved]).status == 0)
        let shown = try await Tool.run("mutool", ["show", saved, "outline"])
        let shownLines: [String] = shown.text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("warning") }
        #expect(shownLines == Self.mutoolOutline)
        // pypdf: titles, colours, flags and /Count as written (a closed item's count negative).
        let script = """
            import sys, pypdf
            r = pypdf.PdfReader(sys.argv[1])
            def walk(items, depth):
                for i in items:
                    if isinstance(i, list):
                        walk(i, depth + 1); continue
                    c = i.get('/C'); f = i.get('/F', 0); n = i.get('/Count', 0)
                    print(depth, i.title, [float(x) for x in c] if c else None, f, n)
            walk(r.outline, 0)
            print('root', r.trailer['/Root']['/Outlines']['/Count'])
            """
        let pypdf = try await Tool.run("python3", ["-c", script, saved])
        let pypdfLines: [String] = pypdf.text.split(separator: "\n").map(String.init)
        #expect(pypdfLines == [
            "0 Introduction [1.0, 0.0, 0.0] 2 2",
            "1 Über “quotes” ☃ None 1 0",
            "1 Fit the page None 0 0",
            "0 Website [0.0, 0.5, 1.0] 0 0",
            "0 Closed None 0 -1",
            "1 Hidden None 3 0",
            "root 5",
        ])
        for other in Fixtures.conformanceBackendIDs {
            let reread = try await Fixtures.conformanceRegistry.open(.file(saved), renderer: .id(other))
            #expect(Self.rounded(try reread.outline()) == Self.outline, "\(other)")
        }
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func itemsAreInsertedChangedMovedAndRemovedByPath(backend: String) async throws {
        let document = try Fixtures.open("outline.pdf", backend: backend)
        let before = try document.outline()
        let added = OutlineItem(title: "Added", destination: .page(index: 2, point: PagePoint(x: 0, y: 300)))
        try document.insertOutlineItem(added, at: [1, 1])
        try document.updateOutlineItem(at: [0]) { $0.title = "First chapter"; $0.isBold = true; $0.isOpen = false }
        try document.moveOutlineItem(from: [2], to: [0])
        try document.removeOutlineItem(at: [2, 0])
        let after = try document.outline()
        #expect(after.map(\.title) == ["Website", "First chapter", "Chapter 2"])
        #expect(after[1].isBold && !after[1].isOpen && after[1].children.map(\.title) == ["Section 1.1", "Section 1.2"])
        #expect(after[2].children.map(\.title) == ["Added"])
        #expect(Self.rounded(after[2].children[0].destination) == added.destination)
        #expect(after[1].children == before[0].children)
        // Paths that name no item, a move below itself, a page the document lacks: nothing changes.
        let bad: [(String, () throws -> Void)] = [
            ("insert", { _ = try document.insertOutlineItem(added, at: [9, 0]) }),
            ("insert past the end", { _ = try document.insertOutlineItem(added, at: [4]) }),
            ("remove", { _ = try document.removeOutlineItem(at: [1, 7]) }),
            ("empty path", { _ = try document.removeOutlineItem(at: []) }),
            ("move below itself", { _ = try document.moveOutlineItem(from: [1], to: [1, 0]) }),
            ("update", { _ = try document.updateOutlineItem(at: [-1]) { $0.title = "x" } }),
        ]
        for (name, call) in bad {
            #expect(throws: RendererError.self, "\(name)") { try call() }
            #expect { try call() } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        }
        #expect { try document.insertOutlineItem(OutlineItem(title: "x", destination: .page(index: 4, point: nil)), at: [0]) } throws: {
            ($0 as? RendererError)?.code == .pageOutOfRange
        }
        #expect(try document.outline() == after)
    }

    /// Input a stranger controls: too deep, too many, numbers that are not numbers, URIs with
    /// spaces, colours out of range. Each is refused before anything is written.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func hostileOutlinesAreRefusedAndChangeNothing(backend: String) throws {
        let document = try Fixtures.open("outline.pdf", backend: backend)
        let before = try document.outline()
        var deep = OutlineItem(title: "leaf", destination: nil)
        for _ in 0..<OutlineItem.maximumDepth { deep = OutlineItem(title: "level", destination: nil, children: [deep]) }
        let wide = Array(repeating: OutlineItem(title: "x", destination: nil), count: Document.maximumOutlineItems + 1)
        let hostile: [[OutlineItem]] = [
            [deep], wide,
            [OutlineItem(title: "nan", destination: .page(index: 0, point: PagePoint(x: .nan, y: 0)))],
            [OutlineItem(title: "zoom", destination: .page(index: 0, point: nil, view: DestinationView(fit: .xyz, left: 0, top: 0, zoom: -1)))],
            [OutlineItem(title: "uri", destination: .uri("javascript: alert(1)"))],
            [OutlineItem(title: "colour", destination: nil, color: Color(red: 2, green: 0, blue: 0))],
            [OutlineItem(title: String(repeating: "x", count: 70_000), destination: nil)],
        ]
        for items in hostile {
            #expect { try document.setOutline(items) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        }
        #expect(try document.outline() == before)
        #expect(!document.hasUnsavedChanges)
        // Removing the outline removes /Outlines.
        try document.setOutline([])
        #expect(try document.outline().isEmpty)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func linksAreAddedAndRemovedAsOtherReadersSeeThem(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("saved.pdf").path
        let document = try Fixtures.open("rotated.pdf", backend: backend)
        let web = Link(area: PageRect(x: 72, y: 72, width: 200, height: 20), destination: .uri("https://example.org/"))
        let jump = Link(area: PageRect(x: 100, y: 300, width: 50, height: 40), destination: .page(index: 2, point: PagePoint(x: 30, y: 40)))
        let annotationsBefore = try document.annotations(pageAt: 1)
        try document.addLink(web, pageAt: 1)
        try document.addLink(jump, pageAt: 1)
        try document.addLink(web, pageAt: 0)
        // A link is not an annotation the API lists.
        #expect(try document.annotations(pageAt: 1) == annotationsBefore)
        #expect(Self.rounded(try document.links(pageAt: 1)) == [web, jump])
        #expect(try document.removeLinks(in: web.area, pageAt: 0) == 1)
        #expect(try document.links(pageAt: 0).isEmpty)
        #expect { try document.removeLinks(in: web.area, pageAt: 0) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        #expect { try document.addLink(web, pageAt: 4) } throws: { ($0 as? RendererError)?.code == .pageOutOfRange }
        let empty = Link(area: PageRect(x: 0, y: 0, width: 0, height: 10), destination: .uri("https://example.org/"))
        #expect { try document.addLink(empty, pageAt: 0) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        try document.save(to: saved)
        #expect(try await Tool.run("qpdf", ["--check", saved]).status == 0)
        let script = """
            import sys, pypdf
            r = pypdf.PdfReader(sys.argv[1])
            for n, page in enumerate(r.pages):
                for a in page.get('/Annots', []):
                    a = a.get_object()
                    if a['/Subtype'] == '/Link':
                        print(n, [round(float(x)) for x in a['/Rect']], a['/A']['/URI'] if '/A' in a else r.get_page_number(a['/Dest'][0].get_object()))
            """
        let pypdf = try await Tool.run("python3", ["-c", script, saved])
        // Page 2 is turned 90 degrees: page space's (72, 72) is user space's (72, 72) seen turned.
        #expect(pypdf.text.split(separator: "\n").map(String.init) == ["1 [72, 72, 92, 272] https://example.org/", "1 [300, 100, 340, 150] 2"])
        for other in Fixtures.conformanceBackendIDs {
            let reread = try await Fixtures.conformanceRegistry.open(.file(saved), renderer: .id(other))
            #expect(Self.rounded(try reread.links(pageAt: 1)) == [web, jump], "\(other)")
            #expect(try reread.links(pageAt: 0).isEmpty, "\(other)")
        }
    }

    /// A document whose permissions forbid changes gets no outline and no link.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aDocumentThatForbidsChangesIsNotEdited(backend: String) throws {
        let document = try Fixtures.open("encrypted.pdf", backend: backend, password: "user-secret")
        #expect { try document.setOutline([OutlineItem(title: "x", destination: nil)]) } throws: { ($0 as? RendererError)?.code == .notPermitted }
        let link = Link(area: PageRect(x: 0, y: 0, width: 10, height: 10), destination: .uri("https://example.org/"))
        #expect { try document.addLink(link, pageAt: 0) } throws: { ($0 as? RendererError)?.code == .notPermitted }
        #expect(!document.hasUnsavedChanges)
    }

    /// Items with points rounded to whole points, and the view left out (what the engines
    /// read back carries the view the file holds).
    static func rounded(_ items: [OutlineItem]) -> [OutlineItem] {
        items.map { item in
            var item = item
            item.destination = rounded(item.destination)
            item.children = rounded(item.children)
            return item
        }
    }

    static func rounded(_ links: [Link]) -> [Link] {
        links.map { Link(area: PageRect(x: $0.area.minX.rounded(), y: $0.area.minY.rounded(), width: $0.area.size.width.rounded(), height: $0.area.size.height.rounded()), destination: rounded($0.destination)!) }
    }

    static func rounded(_ destination: Destination?) -> Destination? {
        guard case .page(let index, let point, let view)? = destination else { return destination }
        let kept = view.map { $0.fit == .xyz ? nil : DestinationView(fit: $0.fit) } ?? nil
        return .page(index: index, point: point.map { PagePoint(x: $0.x.rounded(), y: $0.y.rounded()) }, view: kept)
    }
}

extension OutlineEditingTests {
    /// An item whose target the API cannot express (here a JavaScript action, written into a copy
    /// of outline.pdf by pypdf) is counted in the report when the outline is written again,
    /// and leads nowhere after.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aTargetTheAPICannotExpressIsReportedWhenDropped(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let launching = folder.appendingPathComponent("script.pdf").path
        let script = """
            import sys, pypdf
            from pypdf.generic import DictionaryObject, NameObject, TextStringObject
            w = pypdf.PdfWriter(clone_from=sys.argv[1])
            item = w._root_object['/Outlines']['/Last'].get_object()
            assert item['/Title'] == 'Website'
            item[NameObject('/A')] = DictionaryObject({NameObject('/S'): NameObject('/JavaScript'), NameObject('/JS'): TextStringObject('app.alert(1)')})
            w.write(sys.argv[2])
            """
        let made = try await Tool.run("python3", ["-c", script, Fixtures.path("outline.pdf"), launching])
        try #require(made.status == 0, "\(made.stderr)")
        let document = try await Fixtures.conformanceRegistry.open(.file(launching), renderer: .id(backend))
        #expect(try document.outline().last?.destination == nil)
        let report = try document.updateOutlineItem(at: [0]) { $0.title = "Renamed" }
        #expect(report == OutlineEditReport(targetsDropped: 1) && report.lines == ["1 outline target dropped"])
        #expect(try document.outline().map(\.title) == ["Renamed", "Chapter 2", "Website"])
        #expect(try document.updateOutlineItem(at: [0]) { $0.title = "Again" }.isEmpty)
    }
}
