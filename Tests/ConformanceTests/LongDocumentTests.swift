import Foundation
import RendererProvider
import Testing
import TestSupport

/// A long document read from start to end on one document, its pages drawn into one kept
/// bitmap (long.pdf: 100 pages that share a font and an image; page i says "Page i" and
/// shows the 2 x 2 image as a 50 x 50 point square at (20, 20)).
@Suite("A long document, start to end, on every backend")
struct LongDocumentTests {
    static let pageCount = 100

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func everyPageReadsRightAfterTheOnesBefore(backend: String) throws {
        let document = try Fixtures.open("long.pdf", backend: backend)
        #expect(document.pageCount == Self.pageCount)
        var bitmap = Bitmap()
        for index in 0..<Self.pageCount {
            #expect(Fixtures.normalizedWhitespace(try document.text(pageAt: index)) == "Page \(index + 1)")
            try document.render(pageAt: index, options: RenderOptions(dpi: 72), into: &bitmap)
            // The middle of each quarter of the shared image: red, green, blue, yellow.
            #expect(bitmap.pixel(x: 32, y: 32) == [255, 0, 0], "page \(index + 1)")
            #expect(bitmap.pixel(x: 57, y: 32) == [0, 255, 0], "page \(index + 1)")
            #expect(bitmap.pixel(x: 32, y: 57) == [0, 0, 255], "page \(index + 1)")
            #expect(bitmap.pixel(x: 57, y: 57) == [255, 255, 0], "page \(index + 1)")
        }
        let fresh = try Fixtures.open("long.pdf", backend: backend)
        #expect(try document.render(pageAt: 99, options: RenderOptions(dpi: 72)) == fresh.render(pageAt: 99, options: RenderOptions(dpi: 72)))
    }

    /// Changes not saved yet stay through a long walk and are saved whole.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func unsavedChangesSurviveALongWalk(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("long.pdf"))
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        let added = try await document.addAnnotation(Annotation(
            kind: .square, pageIndex: 0, rect: PageRect(x: 100, y: 140, width: 60, height: 40),
            color: Color(red: 0, green: 0, blue: 1), contents: "square 0"))
        for index in 0..<Self.pageCount { _ = try await document.render(pageAt: index, options: RenderOptions(dpi: 36)) }
        #expect(try document.annotations(pageAt: 0).map(\.id) == [added.id])
        try document.save()
        let reopened = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        #expect(try reopened.annotations(pageAt: 0).map(\.contents) == ["square 0"])
        #expect(try await Tool.run("qpdf", ["--check", path]).status == 0)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aSearchOverSeveralJobsFindsWhatOneFinds(backend: String) throws {
        let document = try Fixtures.open("long.pdf", backend: backend)
        func hits(_ term: String, wholeWord: Bool, jobs: Int) throws -> [SearchHit] {
            var found: [SearchHit] = []
            let count = try document.search(term, options: SearchOptions(wholeWord: wholeWord), batch: BatchOptions(jobs: jobs)) { found.append($0) }
            #expect(count == found.count)
            return found
        }
        // "Page 1" begins the text of pages 1, 10-19 and 100; as a whole word, only page 1's.
        let single = try hits("Page 1", wholeWord: false, jobs: 1)
        #expect(single.map(\.pageIndex) == [0] + Array(9...18) + [99])
        #expect(try hits("Page 1", wholeWord: false, jobs: 3) == single)
        #expect(try hits("Page 1", wholeWord: true, jobs: 3).map(\.pageIndex) == [0])
        let onePage = try document.search("Page 1", pageAt: 12)
        #expect(single.filter { $0.pageIndex == 12 } == onePage)
    }
}
