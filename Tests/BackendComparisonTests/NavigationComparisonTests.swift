import Foundation
import RendererProvider
import Testing
import TestSupport

/// Text, search, outline and links of the same documents through both engines.
@Suite("MuPDF and Poppler agree on text, search, outline and links")
struct NavigationComparisonTests {
    static let terms = ["the", "page", "apple", "Renderer", "e"]

    @Test(arguments: Fixtures.allDocuments)
    func sameTextSearchAndLinks(file: String) throws {
        let mupdf = try Fixtures.registry.open(.file(file), renderer: .id("mupdf"))
        let poppler = try Fixtures.registry.open(.file(file), renderer: .id("poppler"))
        for index in 0..<mupdf.pageCount {
            #expect(Fixtures.normalizedWhitespace(try mupdf.text(pageAt: index)) == Fixtures.normalizedWhitespace(try poppler.text(pageAt: index)),
                    "text of page \(index + 1)")
            for term in Self.terms {
                let a = try mupdf.search(term, pageAt: index), b = try poppler.search(term, pageAt: index)
                #expect(a.count == b.count, "'\(term)' on page \(index + 1)")
                for (hitA, hitB) in zip(a, b) {
                    #expect(!hitA.bounds.intersection(hitB.bounds).isEmpty, "'\(term)' on page \(index + 1): boxes do not overlap")
                }
            }
            try Comparison.expectSameLinks(mupdf.links(pageAt: index), poppler.links(pageAt: index), "page \(index + 1)")
        }
        try Comparison.expectSameOutline(mupdf.outline(), poppler.outline())
    }

    /// Real PDFs from Debian's documentation: both outlines equal what `mutool show FILE
    /// outline` lists (titles, nesting, target pages); on the first pages each engine's text
    /// equals its own tool's, and the engines find the same links, and the same number of hits
    /// wherever the two tools' texts hold a term equally often.
    @Test func realWorldDocuments() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try await RealWorldDocuments.collect(into: directory, limit: 6)
        try #require(!files.isEmpty, "no PDF found under /usr/share/doc")
        for file in files {
            let expected = try await MutoolOutline(file: file).entries
            let mupdf = try await Fixtures.registry.open(.file(file), renderer: .id("mupdf"))
            let poppler = try await Fixtures.registry.open(.file(file), renderer: .id("poppler"))
            for document in [mupdf, poppler] {
                #expect(MutoolOutline.flatten(try document.outline()) == expected, "\(file) with \(document.renderer.id)")
            }
            for index in Array(0..<mupdf.pageCount).prefix(12) {
                try Comparison.expectSameLinks(mupdf.links(pageAt: index), poppler.links(pageAt: index), "\(file) page \(index + 1)")
                let mutool = try await Tool.run("mutool", ["draw", "-q", "-F", "txt", "-o", "-", file, "\(index + 1)"]).text
                let pdftotext = try await Tool.run("pdftotext", ["-f", "\(index + 1)", "-l", "\(index + 1)", file, "-"]).text
                #expect(await Fixtures.normalizedWhitespace(try mupdf.text(pageAt: index)) == Fixtures.normalizedWhitespace(mutool), "\(file) page \(index + 1)")
                #expect(await Fixtures.normalizedWhitespace(try poppler.text(pageAt: index)) == Fixtures.normalizedWhitespace(pdftotext), "\(file) page \(index + 1)")
                for term in ["the", "and", "function"] {
                    // Where the engines' own tools already read the page differently (one
                    // splits a letter-spaced word the other keeps whole), hits may differ too.
                    let counts = [mutool, pdftotext].map { $0.lowercased().components(separatedBy: term).count }
                    guard counts[0] == counts[1] else { continue }
                    #expect(try mupdf.search(term, pageAt: index).count == poppler.search(term, pageAt: index).count,
                            "\(file) page \(index + 1): '\(term)'")
                }
            }
        }
    }
}

/// Expectations over the API's own notions of closeness (``PageRect/isClose(to:within:)``,
/// ``Destination/matches(_:within:)``), as the comparison API judges them.
enum Comparison {
    static func expectSameLinks(_ a: [Link], _ b: [Link], _ context: String) {
        #expect(a.count == b.count, "\(context): \(a.count) vs \(b.count) links")
        for (x, y) in zip(a, b) {
            #expect(x.area.isClose(to: y.area), "\(context): \(x.area) vs \(y.area)")
            #expect(x.destination.matches(y.destination), "\(context): \(x.destination) vs \(y.destination)")
        }
    }

    static func expectSameOutline(_ a: [OutlineItem], _ b: [OutlineItem]) {
        #expect(a.count == b.count)
        for (x, y) in zip(a, b) {
            #expect(x.title == y.title && x.isOpen == y.isOpen, "\(x.title) vs \(y.title)")
            let same = switch (x.destination, y.destination) {
            case (let p?, let q?): p.matches(q)
            case (nil, nil): true
            default: false
            }
            #expect(same, "\(x.title): \(String(describing: x.destination)) vs \(String(describing: y.destination))")
            expectSameOutline(x.children, y.children)
        }
    }
}

/// The outline as `mutool show FILE outline` prints it: one line per item, its depth in
/// tabs, its title in quotes, its target (`#page=N...` for pages of the document).
struct MutoolOutline {
    struct Entry: Equatable, CustomStringConvertible {
        var depth: Int
        var title: String
        var page: Int?
        var description: String { "\(depth) \(title) \(page.map(String.init) ?? "-")" }
    }

    var entries: [Entry] = []

    init(file: String) async throws {
        for line in try await Tool.run("mutool", ["show", file, "outline"]).text.split(separator: "\n") {
            guard let match = line.firstMatch(of: /^[|+-](\t+)"(.*)"\t(.*)$/) else { continue }
            let page = match.output.3.firstMatch(of: /^#page=(\d+)/).flatMap { Int($0.output.1) }.map { $0 - 1 }
            // mutool escapes quotes and backslashes in titles.
            let title = String(match.output.2).replacing(/\\(.)/) { String($0.output.1) }
            entries.append(Entry(depth: match.output.1.count - 1, title: title, page: page))
        }
    }

    static func flatten(_ items: [OutlineItem], depth: Int = 0) -> [Entry] {
        items.flatMap { item -> [Entry] in
            var page: Int?
            if case .page(let index, _, _)? = item.destination { page = index }
            return [Entry(depth: depth, title: item.title, page: page)] + flatten(item.children, depth: depth + 1)
        }
    }
}
