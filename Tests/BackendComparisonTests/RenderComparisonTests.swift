import Foundation
import RendererComparison
import RendererProvider
import Testing
import TestSupport

/// Both engines through the comparison API: the fixtures pass, and documents that really
/// differ fail with the page named.
@Suite("Comparing the engines' renders")
struct RenderComparisonTests {
    @Test(arguments: Fixtures.allDocuments)
    func everyFixturePagePassesTheDefaults(file: String) throws {
        let comparison = try DocumentComparer().compare(.file(file), renderers: ["mupdf", "poppler"], registry: Fixtures.registry)
        let failures = comparison.candidates.flatMap { $0.differences + $0.pages.flatMap(\.failures) }
        #expect(comparison.passed, "\(failures)")
        #expect(comparison.candidates.first?.pages.allSatisfy { $0.pixels != nil && $0.textAgreement == 1 } == true)
    }

    /// The async form gives the synchronous form's figures, and a cancelled task stops it.
    @Test func theAsyncComparisonGivesTheSameFiguresAndStopsWhenCancelled() async throws {
        let source = DocumentSource.file(Fixtures.path("mixed-sizes.pdf"))
        let sync = try DocumentComparer().compare(source, renderers: ["mupdf", "poppler"], registry: Fixtures.registry, images: nil)
        let async = try await DocumentComparer().compare(source, renderers: ["mupdf", "poppler"], registry: Fixtures.registry)
        #expect(async == sync)
        let cancelled = Task { try await DocumentComparer().compare(source, renderers: ["mupdf", "poppler"], registry: Fixtures.registry) }
        cancelled.cancel()
        let error = await #expect(throws: RendererError.self) { _ = try await cancelled.value }
        #expect(error?.code == .cancelled)
    }

    @Test func differentDocumentsFailAndThePageIsNamed() throws {
        let reference = try Fixtures.open("text.pdf", backend: "mupdf")
        let other = try Fixtures.open("search.pdf", backend: "poppler")
        let comparison = try DocumentComparer().compare(reference, other)
        #expect(!comparison.passed)
        let failed = comparison.pages.filter { !$0.passed }
        #expect(failed.map(\.pageIndex) == [0, 1, 2])
        #expect(failed[0].failures.contains { $0.hasPrefix("text:") })
        #expect(failed[0].failures.contains { $0.hasPrefix("pixels:") })
    }

    @Test func aPageOneRendererLeavesBlankFails() throws {
        // Page 1 of the sample against page 1 of a blank-looking page: the cropbox fixture's
        // visible area is nearly empty, so compare the colour page with a page of text.
        let reference = try Fixtures.open("colors.pdf", backend: "mupdf")
        let candidate = try Fixtures.open("text.pdf", backend: "poppler")
        let page = try #require(DocumentComparer().compare(reference, candidate, pages: [0]).pages.first)
        #expect(!page.passed)
        #expect(page.pixels.map { $0.shiftedDifferingShareOfInk > 0.5 } == true)
    }

    @Test func aRendererThatCannotOpenTheFileFailsTheComparison() throws {
        let comparison = try DocumentComparer().compare(
            .file(Fixtures.path("poppler-only.pdf")), renderers: ["mupdf", "poppler"], registry: Fixtures.registry)
        #expect(!comparison.passed)
        #expect(comparison.candidates.first?.differences.first?.contains("mupdf cannot open the document, poppler can") == true)
    }

    @Test func autoServesAFileWithTheEngineThatOpensIt() throws {
        // poppler-only.pdf: MuPDF cannot repair it, Poppler can.
        #expect(try Fixtures.registry.open(.file(Fixtures.path("poppler-only.pdf"))).renderer.id == "poppler")
        // text.pdf cut at 780 bytes: MuPDF repairs it, Poppler cannot; Poppler comes first here.
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf"))).prefix(780)
        let popplerFirst = RendererRegistry(Fixtures.registry.renderers.reversed())
        let document = try popplerFirst.open(.memory(Data(data)))
        #expect(document.renderer.id == "mupdf")
        #expect(document.pageCount == 3)
    }
}
