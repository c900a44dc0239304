import Foundation
import RendererProvider
import Synchronization
import Testing
import TestSupport

/// Whole-document work over several workers, on every backend.
@Suite("Pages in parallel, on every backend")
struct BatchTests {
    static let documents = ["labels.pdf", "mixed-sizes.pdf", "rotated.pdf", "text.pdf", "outline.pdf"]

    /// What one page gives: its pixels at 72 dpi and its text.
    static func output(of document: Document, page: Int) throws -> Data {
        var output = try document.render(pageAt: page, options: RenderOptions(dpi: 72)).pnmData()
        output.append(Data(try document.text(pageAt: page).utf8))
        return output
    }

    @Test(arguments: Fixtures.readingBackendIDs, documents)
    func severalJobsGiveWhatOneGives(backend: String, file: String) throws {
        let document = try Fixtures.open(file, backend: backend)
        let pages = Array(0..<document.pageCount)
        var single: [Int: Data] = [:], parallel: [Int: Data] = [:]
        var order: [Int] = []
        try document.forEachPage(pages, options: BatchOptions(jobs: 1)) { try Self.output(of: $0, page: $1) } deliver: { single[$0] = $1 }
        try document.forEachPage(pages, options: BatchOptions(jobs: 3)) { try Self.output(of: $0, page: $1) } deliver: {
            order.append($0)
            parallel[$0] = $1
        }
        #expect(order == pages, "delivered in page order")
        #expect(single.count == pages.count)
        #expect(parallel == single)
        // Every page differs from the others here, so the comparison sees which page is which.
        #expect(Set(single.values).count == pages.count)
    }

    @Test(arguments: Fixtures.readingBackendIDs, [1, 3])
    func progressReachesTheEndExactlyOnce(backend: String, jobs: Int) throws {
        let document = try Fixtures.open("labels.pdf", backend: backend)
        let pages = [8, 0, 4, 2]
        var reports: [BatchProgress] = []
        let options = BatchOptions(jobs: jobs) { reports.append($0) }
        try document.forEachPage(pages, options: options) { try $0.text(pageAt: $1) } deliver: { _, _ in }
        #expect(reports.map(\.pageIndex) == pages)
        #expect(reports.map(\.completed) == [1, 2, 3, 4])
        #expect(reports.allSatisfy { $0.total == 4 })
        #expect(reports.filter { $0.fraction == 1 }.count == 1)
    }

    /// Cancelled after the second page is delivered: later pages are neither delivered nor
    /// reported, the run throws `cancelled`, and every worker has stopped when it returns.
    @Test(arguments: Fixtures.readingBackendIDs, [1, 2])
    func cancellingStopsTheRun(backend: String, jobs: Int) throws {
        let document = try Fixtures.open("labels.pdf", backend: backend)
        let cancellation = Cancellation()
        let started = Atomic<Int>(0), working = Atomic<Int>(0)
        var delivered: [Int] = []
        let options = BatchOptions(jobs: jobs, cancellation: cancellation) { if $0.completed == 2 { cancellation.cancel() } }
        let error = #expect(throws: RendererError.self) {
            try document.forEachPage(Array(0..<9), options: options) { document, index in
                started.add(1, ordering: .relaxed)
                working.add(1, ordering: .relaxed)
                defer { working.subtract(1, ordering: .relaxed) }
                return try document.render(pageAt: index, options: RenderOptions(dpi: 150), cancellation: cancellation).width
            } deliver: { index, _ in delivered.append(index) }
        }
        #expect(error?.code == .cancelled)
        #expect(delivered == [0, 1])
        #expect(working.load(ordering: .relaxed) == 0, "no worker is still drawing")
        if jobs == 1 { #expect(started.load(ordering: .relaxed) == 2, "no page was started after the cancellation") }
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func aCancelledRenderDrawsNothing(backend: String) throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        let cancellation = Cancellation()
        cancellation.cancel()
        let error = #expect(throws: RendererError.self) { try document.render(pageAt: 0, options: RenderOptions(dpi: 72), cancellation: cancellation) }
        #expect(error?.code == .cancelled)
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func aWorkerThatCannotOpenItsDocumentFailsTheRun(backend: String) throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("labels.pdf"))
        let document = try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        try FileManager.default.removeItem(atPath: path)
        let error = #expect(throws: RendererError.self) {
            try document.forEachPage(Array(0..<9), options: BatchOptions(jobs: 2)) { try $0.text(pageAt: $1) } deliver: { _, _ in }
        }
        #expect(error?.code == .fileNotFound)
    }
}

@Suite("Limits given at opening, on every backend")
struct DocumentLimitsTests {
    /// Workers open their documents with the limits of the one they serve; a small cache
    /// changes what the engine keeps, never what it draws.
    @Test(arguments: Fixtures.readingBackendIDs)
    func workersKeepTheLimitsAndPixelsDoNotChange(backend: String) throws {
        let small = DocumentLimits(cacheBytes: 1 << 20)
        let document = try Fixtures.conformanceRegistry.open(.file(Fixtures.path("long.pdf")), renderer: .id(backend), limits: small)
        #expect(document.limits == small)
        let reference = try Fixtures.open("long.pdf", backend: backend)
        #expect(reference.limits == DocumentLimits())
        var seen: [DocumentLimits] = []
        try document.forEachPage(Array(0..<20), options: BatchOptions(jobs: 2)) { worker, index in
            (worker.limits, try worker.render(pageAt: index, options: RenderOptions(dpi: 72)))
        } deliver: { index, result in
            seen.append(result.0)
            let expected = try reference.render(pageAt: index, options: RenderOptions(dpi: 72))
            #expect(result.1 == expected, "page \(index + 1)")
        }
        #expect(seen == Array(repeating: small, count: 20))
    }
}
