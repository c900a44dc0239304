import Foundation
import RendererProvider
import Testing
import TestSupport

/// Outline and links on every backend, against what the fixtures were built with.
@Suite("Outline and links, on every backend")
struct NavigationConformanceTests {
    @Test(arguments: Fixtures.backendIDs)
    func outlineWithNestingNamedDestinationAndURI(backend: String) throws {
        let outline = try Fixtures.open("outline.pdf", backend: backend).outline()
        #expect(Self.rounded(outline) == FixtureFacts.outline)
    }

    @Test(arguments: Fixtures.backendIDs)
    func documentWithoutOutline(backend: String) throws {
        #expect(try Fixtures.open("text.pdf", backend: backend).outline().isEmpty)
    }

    @Test(arguments: Fixtures.backendIDs)
    func circularOutlineIsCutWhereItCloses(backend: String) throws {
        let outline = try Fixtures.open("outline-cycle.pdf", backend: backend).outline()
        #expect(outline.map(\.title) == ["A", "B", "C"])
        #expect(outline.dropFirst().first?.children.map(\.title) == ["B1"])
        #expect(outline.dropFirst().first?.children.first?.children.isEmpty == true)
    }

    @Test(arguments: Fixtures.backendIDs)
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

    @Test(arguments: Fixtures.backendIDs)
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

    @Test(arguments: Fixtures.backendIDs)
    func sampleLinksLeadWhereTheyShould(backend: String) throws {
        let document = try Fixtures.registry.open(.file(Fixtures.samplePath), backend: .id(backend))
        let targets = try document.links(pageAt: 0).map { Self.rounded($0.destination) }
        #expect(targets == [.page(index: 2, point: PagePoint(x: 0, y: 0)), .uri("https://www.example.org/")])
    }

    /// Destinations with their points rounded to whole points, as the fixtures define them.
    static func rounded(_ destination: Destination?) -> Destination? {
        guard case .page(let index, let point?)? = destination else { return destination }
        return .page(index: index, point: PagePoint(x: point.x.rounded(), y: point.y.rounded()))
    }

    static func rounded(_ items: [OutlineItem]) -> [OutlineItem] {
        items.map { OutlineItem(title: $0.title, destination: rounded($0.destination), isOpen: $0.isOpen, children: rounded($0.children)) }
    }
}
