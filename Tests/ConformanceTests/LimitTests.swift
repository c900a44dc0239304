import Foundation
import RendererProvider
import Testing
import TestSupport

/// Requests past a limit fail early with `limitExceeded`, on every backend.
@Suite("Limits on one request, on every backend")
struct LimitTests {
    /// A resolution or a bitmap past its limit fails before any pixel storage is allocated:
    /// a kept bitmap keeps its size and storage.
    @Test(arguments: Fixtures.readingBackendIDs)
    func oversizedRequestsAllocateNothing(backend: String) throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        var bitmap = try document.render(pageAt: 0, options: RenderOptions(dpi: 10))
        let before = (bitmap.width, bitmap.height, bitmap.bytes.count)
        let requests = [
            RenderOptions(dpi: 600, maximumDPI: 300),
            RenderOptions(dpi: 4801),
            RenderOptions(dpi: 300, maximumPixelCount: 1_000_000),
            // 612 x 792 pt at 4800 dpi: 40,800 x 52,800 pixels, past the default 2^28.
            RenderOptions(dpi: 4800),
        ]
        for options in requests {
            let error = #expect(throws: RendererError.self) { try document.render(pageAt: 0, options: options, into: &bitmap) }
            #expect(error?.code == .limitExceeded, "\(options.dpi) dpi")
            #expect(error?.message.contains("limit") == true)
            #expect((bitmap.width, bitmap.height, bitmap.bytes.count) == before)
        }
        // Inside the limits the same request draws.
        let allowed = try document.render(pageAt: 0, options: RenderOptions(dpi: 300, maximumDPI: 300))
        #expect((allowed.width, allowed.height) == (2550, 3300))
    }

    /// A time limit that has already run out stops a render before it draws, and says so.
    @Test(arguments: Fixtures.readingBackendIDs)
    func anExpiredTimeLimitStopsARender(backend: String) throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        let limit = Cancellation(timeLimit: .zero)
        for _ in 0..<5000 where !limit.isCancelled { Thread.sleep(forTimeInterval: 0.001) }
        let error = #expect(throws: RendererError.self) { try document.render(pageAt: 0, cancellation: limit) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message == "the operation took longer than its time limit of 0 s")
    }

    /// MuPDF stops within a page when the time runs out: a page it would draw for hours
    /// (``SlowPage/writeEndless(to:)``) ends with `limitExceeded` once its 0.1 s are spent.
    /// Nothing is timed: a render still running after two minutes fails the test, its
    /// thread left to the end of the run.
    @Test func muPDFStopsWithinAPageWhenTimeRunsOut() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("endless-\(UUID().uuidString).pdf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SlowPage.writeEndless(to: path)
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id("mupdf"))
        let error = try await onOwnThread(atMost: .seconds(120)) { () -> RendererError? in
            do {
                _ = try document.render(pageAt: 0, options: RenderOptions(dpi: 300), cancellation: Cancellation(timeLimit: .milliseconds(100)))
                return nil
            } catch let error as RendererError {
                return error
            }
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.rendererID == "mupdf")
        #expect(error?.message.contains("time limit of 0.1 s") == true)
    }
}
