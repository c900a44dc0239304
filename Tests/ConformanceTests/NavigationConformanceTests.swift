import Foundation
import RendererProvider
import Testing
import TestSupport

/// Outline and links on every backend, against what the fixtures were built with.
@Suite("Outline and links, on every backend")
struct NavigationConformanceTests {
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func outlineWithNestingNamedDestinationAndURI(backend: String) throws {
        let outline = try Fixtures.open("outline.pdf", backend: backend).outline()
        #expect(Self.rounded(outline) == FixtureFacts.outline)
    }

    /// outline.pdf's name tree holds "sec12": page 2 (index), user-space top 400, so y 392
    /// in page space; the outline item "Section 1.2" goes there through the name.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func namedDestinationsLeadWhereTheOutlineDoes(backend: String) throws {
        let document = try Fixtures.open("outline.pdf", backend: backend)
        let named = try document.destination(named: "sec12")
        #expect(Self.rounded(named) == .page(index: 2, point: PagePoint(x: 0, y: 392)))
        let item = try document.outline().first?.children.last?.destination
        #expect(named == item, "the name and the outline item agree, view included")
        for missing in ["sec13", "", "SEC12", "sec12\u{0}x", String(repeating: "x", count: 10_000)] {
            #expect(try document.destination(named: missing) == nil, "\(missing.prefix(20))")
        }
        #expect(try Fixtures.open("text.pdf", backend: backend).destination(named: "sec12") == nil)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func documentWithoutOutline(backend: String) throws {
        #expect(try Fixtures.open("text.pdf", backend: backend).outline().isEmpty)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func circularOutlineIsCutWhereItCloses(backend: String) throws {
        let outline = try Fixtures.open("outline-cycle.pdf", backend: backend).outline()
        #expect(outline.map(\.title) == ["A", "B", "C"])
        #expect(outline.dropFirst().first?.children.map(\.title) == ["B1"])
        #expect(outline.dropFirst().first?.children.first?.children.isEmpty == true)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func deepOutlineIsCutAtTheDepthLimit(backend: String) throws {
        var level = try Fixtures.open("outline-deep.pdf", backend: backend).outline()
        var titles: [String] = []
        while let item = level.first {
            #expect(level.count == 1)
            titles.append(item.title)
            level = item.children
        }
        #expect(titles == (1...OutlineItem.maximumDepth).map { "Level \($0)" })
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func linksAtKnownRectangles(backend: String) throws {
        let document = try Fixtures.open("outline.pdf", backend: backend)
        let links = try document.links(pageAt: 0)
        #expect(links.count == FixtureFacts.links.count)
        for (link, expected) in zip(links, FixtureFacts.links) {
            #expect(link.area.isClose(to: expected.area), "\(link.area) vs \(expected.area)")
            #expect(Self.rounded(link.destination) == expected.destination)
        }
        #expect(try document.links(pageAt: 1).isEmpty)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func sampleLinksLeadWhereTheyShould(backend: String) throws {
        let document = try Fixtures.conformanceRegistry.open(.file(Fixtures.samplePath), renderer: .id(backend))
        let targets = try document.links(pageAt: 0).map { Self.rounded($0.destination) }
        #expect(targets == [.page(index: 2, point: PagePoint(x: 0, y: 0)), .uri("https://www.example.org/")])
    }

    /// destinations.pdf (make-fixtures.sh): one outline item and one link of each kind of
    /// destination, on a plain page, a page whose crop box does not start at 0 and a page
    /// turned a quarter. pypdf reads the arrays the file writes; both engines give every one
    /// in page space as worked out here by hand, links and outline alike.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func everyKindOfDestinationLandsWhereThePDFSays(backend: String) async throws {
        typealias View = DestinationView
        let expected: [(title: String, array: String, page: Int, view: View)] = [
            ("XYZ", "XYZ 100 700 2", 0, View(fit: .xyz, left: 100, top: 92, zoom: 2)),
            ("XYZ nulls", "XYZ null 600 null", 1, View(fit: .xyz, top: 142)),
            ("Fit", "Fit", 0, View(fit: .fit)),
            ("FitH", "FitH 650", 1, View(fit: .fitH, top: 92)),
            ("FitV", "FitV 100", 0, View(fit: .fitV, left: 100)),
            ("FitR", "FitR 66 714 180 770", 0, View(fit: .fitR, left: 66, top: 22, rect: PageRect(x: 66, y: 22, width: 114, height: 56))),
            ("FitB", "FitB", 2, View(fit: .fitB)),
            // On the page turned a quarter, user-space y is page-space x.
            ("FitBH", "FitBH 500", 2, View(fit: .fitBH, left: 500)),
            ("FitBV", "FitBV 200", 1, View(fit: .fitBV, left: 150)),
            ("FitR rotated", "FitR 100 200 300 400", 2, View(fit: .fitR, left: 200, top: 100, rect: PageRect(x: 200, y: 100, width: 200, height: 200))),
            ("XYZ rotated", "XYZ 100 700 0", 2, View(fit: .xyz, left: 700, top: 100)),
            ("FitR cropped", "FitR 100 200 300 400", 1, View(fit: .fitR, left: 50, top: 342, rect: PageRect(x: 50, y: 342, width: 200, height: 200))),
        ]
        let file = Fixtures.path("destinations.pdf")
        let script = """
            import sys, pypdf
            reader = pypdf.PdfReader(sys.argv[1])
            item = reader.trailer["/Root"]["/Outlines"]["/First"]
            while item is not None:
                array = item["/Dest"]
                page = reader.get_page_number(array[0].get_object())
                numbers = ["null" if isinstance(value, pypdf.generic.NullObject) else "%g" % float(value) for value in array[2:]]
                print("%s|%d|%s" % (item["/Title"], page, " ".join([str(array[1])[1:]] + numbers)))
                item = item.get("/Next")
            """
        let read = try await Tool.run("python3", ["-c", script, file])
        #expect(read.text == expected.map { "\($0.title)|\($0.page)|\($0.array)\n" }.joined(), "pypdf: \(read.text)\(read.stderr)")

        let document = try Fixtures.open("destinations.pdf", backend: backend)
        let outline = try document.outline()
        let links = try document.links(pageAt: 0)
        #expect(outline.map(\.title) == expected.map(\.title) && links.count == expected.count)
        for (index, entry) in expected.enumerated() {
            for (source, destination) in [("outline", outline[index].destination), ("link", links[index].destination)] {
                guard case .page(let page, let point, let view?)? = destination else {
                    Issue.record("\(entry.title), \(source): \(String(describing: destination))")
                    continue
                }
                #expect(page == entry.page && Self.same(view, entry.view), "\(entry.title), \(source): \(view)")
                #expect(point == view.point, "\(entry.title), \(source)")
            }
        }
    }

    /// Destinations a stranger wrote to confuse: numbers missing, an unknown kind, named
    /// destinations that name each other, absurd numbers, a page past the end, and a GoTo
    /// action to a named destination held in a dictionary's /D. Both engines list every item, nothing crashes or loops,
    /// every number given is finite, and the well-formed one lands where it says.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func hostileDestinationsAreReadSafely(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hostile-destinations.pdf").path
        let script = """
            import sys
            sys.path.insert(0, sys.argv[2])
            from pdf_writer import pdf_file
            targets = [b"/Dest [3 0 R /FitR 1 2]", b"/Dest [3 0 R /Bogus 1 2]", b"/Dest /Loop",
                       b"/Dest [3 0 R /XYZ (text) 1e308 -5]", b"/Dest [99 /Fit]",
                       b"/A << /S /GoTo /D /Good >>"]
            objects = {1: b"<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R /Dests << /Loop /Again /Again /Loop /Good << /D [3 0 R /FitH 500] >> >> >>",
                       2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                       3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
                       4: b"<< /Type /Outlines /First 10 0 R /Last %d 0 R /Count %d >>" % (9 + len(targets), len(targets))}
            for i, target in enumerate(targets):
                sibling = (b" /Prev %d 0 R" % (9 + i) if i else b"") + (b" /Next %d 0 R" % (11 + i) if i < len(targets) - 1 else b"")
                objects[10 + i] = b"<< /Title (item %d) /Parent 4 0 R " % i + target + sibling + b" >>"
            open(sys.argv[1], "wb").write(pdf_file(objects)[0])
            """
        #expect(try await Tool.run("python3", ["-c", script, file, Fixtures.path("")]).status == 0)
        let outline = try await Fixtures.conformanceRegistry.open(.file(file), renderer: .id(backend)).outline()
        #expect(outline.map(\.title) == (0..<6).map { "item \($0)" })
        for item in outline {
            guard case .page(let index, let point, let view)? = item.destination else { continue }
            #expect(index == 0, "\(item.title)")
            let numbers = [point?.x, point?.y, view?.left, view?.top, view?.zoom, view?.rect?.minX, view?.rect?.maxY].compactMap { $0 }
            #expect(numbers.allSatisfy { $0.isFinite }, "\(item.title): \(numbers)")
        }
        guard case .page(0, _, let view?)? = outline.last?.destination else {
            Issue.record("the GoTo action's destination: \(String(describing: outline.last?.destination))")
            return
        }
        #expect(view.fit == .fitH && view.top == 292, "\(view)")
    }

    /// Views equal to a hundredth of a point.
    static func same(_ a: DestinationView, _ b: DestinationView) -> Bool {
        func close(_ x: Double?, _ y: Double?) -> Bool { x == nil ? y == nil : y.map { abs($0 - x!) < 0.01 } ?? false }
        return a.fit == b.fit && close(a.left, b.left) && close(a.top, b.top) && close(a.zoom, b.zoom)
            && close(a.rect?.minX, b.rect?.minX) && close(a.rect?.minY, b.rect?.minY) && close(a.rect?.maxX, b.rect?.maxX) && close(a.rect?.maxY, b.rect?.maxY)
    }

    /// Destinations with their points rounded to whole points, as the fixtures define them
    /// (without the view, which `everyKindOfDestinationLandsWhereThePDFSays` checks).
    static func rounded(_ destination: Destination?) -> Destination? {
        guard case .page(let index, let point, _)? = destination else { return destination }
        return .page(index: index, point: point.map { PagePoint(x: $0.x.rounded(), y: $0.y.rounded()) })
    }

    static func rounded(_ items: [OutlineItem]) -> [OutlineItem] {
        items.map { OutlineItem(title: $0.title, destination: rounded($0.destination), isOpen: $0.isOpen, children: rounded($0.children)) }
    }
}
