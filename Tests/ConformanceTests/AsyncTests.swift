import Foundation
import RendererProvider
import Testing
import TestSupport

/// The async API on every backend: the same results as the synchronous one, task
/// cancellation that stops engine work, and engine work kept off Swift's cooperative pool.
@Suite("Async API, on every backend")
struct AsyncTests {
    /// A one-page document that takes an engine a second or more to draw at 150 dpi.
    static let slowPage: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("async-slow-\(ProcessInfo.processInfo.processIdentifier).pdf").path
        try! SlowPage.write(curves: 25_000, to: path)
        return path
    }()

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func asyncFormsGiveWhatTheSynchronousOnesGive(backend: String) async throws {
        let document = try await Fixtures.conformanceRegistry.open(.file(Fixtures.path("search.pdf")), renderer: .id(backend))
        for index in 0..<document.pageCount {
            let pixels = try await document.render(pageAt: index, options: RenderOptions(dpi: 30))
            #expect(pixels == (try document.render(pageAt: index, options: RenderOptions(dpi: 30), cancellation: nil)))
            #expect(try await document.text(pageAt: index) == document.text(pageAt: index))
        }
        let hits = try await document.hits(of: "apple")
        #expect(hits.count == 6, "search.pdf has 4 + 2 + 0 matches of apple, in any case")
        var pages: [Int] = []
        for try await page in document.renders(of: [2, 0], options: RenderOptions(dpi: 20)) { pages.append(page.pageIndex) }
        #expect(pages == [2, 0])
        let note = try await document.addAnnotation(Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 1, y: 1, width: 9, height: 9)))
        #expect(try await document.annotations().map(\.id) == [note.id])
    }

    /// MuPDF stops within the page: a page that would take an engine hours
    /// (`SlowPage.writeEndless`), whose drawing has begun on an engine thread, ends with
    /// `cancelled` once its task is cancelled. Nothing but a stop inside the page could end
    /// it, so no duration is compared; the time limit catches a render that does not stop.
    @Test(.timeLimit(.minutes(2))) func cancellingATaskStopsMuPDFWithinThePage() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("async-endless-\(UUID().uuidString).pdf").path
        try SlowPage.writeEndless(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pool = EngineThreads(threadCount: 1)  // its own thread: no other test's work queued before this one's
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id("mupdf"), on: pool)
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let render = Task {
            try await pool.run { cancellation in
                signal.yield()
                return try document.render(pageAt: 0, options: RenderOptions(dpi: 72), cancellation: cancellation)
            }
        }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        render.cancel()
        let error = await #expect(throws: RendererError.self) { _ = try await render.value }
        #expect(error?.code == .cancelled)
    }

    /// Poppler cannot stop within a page, so a cancelled task stops before the next: a
    /// stream of eight slow pages whose task is cancelled once the first page arrives draws
    /// no other page, and ends with `cancelled`.
    @Test(arguments: Fixtures.readingBackendIDs)
    func cancellingATaskStopsAStreamOfPagesBetweenPages(backend: String) async throws {
        let pool = EngineThreads(threadCount: 1)
        let document = try await Fixtures.conformanceRegistry.open(.file(Self.slowPage), renderer: .id(backend), on: pool)
        let drawn = Locked(0)
        let stream = Task {
            for try await _ in document.renders(of: Array(repeating: 0, count: 8), options: RenderOptions(dpi: 72), on: pool) {
                if drawn.withLock({ $0 += 1; return $0 }) == 1 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let error = await #expect(throws: RendererError.self) { try await stream.value }
        #expect(error?.code == .cancelled)
        #expect(drawn.withLock { $0 } == 1, "pages drawn after the cancel")
    }

    /// A pool is idle at once when it has no work, and, while a render runs, only once that
    /// render has ended: what a process waits for before it exits.
    @Test(.timeLimit(.minutes(2))) func aPoolIsIdleOnceItsWorkHasEnded() async throws {
        let pool = EngineThreads(threadCount: 1)
        await pool.idle()
        let document = try await Fixtures.conformanceRegistry.open(.file(Fixtures.path("text.pdf")), renderer: .id("mupdf"), on: pool)
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let gate = DispatchSemaphore(value: 0)
        let ended = Locked(false)
        let render = Task {
            try await pool.run { cancellation in
                signal.yield()
                gate.wait()
                defer { ended.withLock { $0 = true } }
                return try document.render(pageAt: 0, options: RenderOptions(dpi: 36), cancellation: cancellation)
            }
        }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        let idle = Task {
            await pool.idle()
            return ended.withLock { $0 }
        }
        gate.signal()
        #expect(await idle.value, "the pool was idle before its render ended")
        _ = try await render.value
    }

    /// A hundred renders on a pool of two threads whose first two are held: while they
    /// are, nothing is drawn, yet another task goes on awaiting and finishes, because the
    /// engine work blocks the pool's threads, not the cooperative pool's. Then all hundred
    /// finish, never more than two at once.
    @Test(.timeLimit(.minutes(2)), arguments: Fixtures.readingBackendIDs)
    func aHundredRendersOnTwoThreadsStarveNoOtherTask(backend: String) async throws {
        let pool = EngineThreads(threadCount: 2)
        let document = try await Fixtures.conformanceRegistry.open(.file(Fixtures.path("text.pdf")), renderer: .id(backend))
        let running = Locked((now: 0, most: 0, done: 0))
        let gate = DispatchSemaphore(value: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            // However the body ends (a failure, the time limit), the gate opens before the
            // group waits for its renders: threads left waiting on it would keep the test
            // process from ever exiting.
            defer { gate.signal() }
            for index in 0..<100 {
                group.addTask {
                    _ = try await pool.run { cancellation in
                        gate.wait()
                        gate.signal()  // once opened, the gate stays open
                        running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        defer { running.withLock { $0.now -= 1; $0.done += 1 } }
                        return try document.render(pageAt: index % 3, options: RenderOptions(dpi: 36), cancellation: cancellation)
                    }
                }
            }
            for _ in 0..<10 {
                await Task.yield()
                try await Task.sleep(for: .milliseconds(2))
            }
            #expect(running.withLock { $0.done } == 0, "the other task finished while the pool's threads were held")
            gate.signal()
            try await group.waitForAll()
        }
        #expect(running.withLock { $0.most } <= 2)
        #expect(running.withLock { $0.done } == 100)
    }
}
