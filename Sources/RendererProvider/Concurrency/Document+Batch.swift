#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How far a whole-document operation has come: reported once per page, in page order.
public struct BatchProgress: Hashable, Sendable {
    /// The page just finished.
    public var pageIndex: Int
    /// Pages finished so far, including this one.
    public var completed: Int
    /// How many pages the batch has.
    public var total: Int

    /// How far the batch is, from 0 to 1.
    public var fraction: Double { total == 0 ? 1 : Double(completed) / Double(total) }
}

/// How a whole-document operation is spread over workers, reported and stopped.
public struct BatchOptions {
    /// Worker threads, each with its own engine document (engines allow no sharing).
    public var jobs: Int
    /// Checked before every page; cancelling makes the operation throw `cancelled`.
    public var cancellation: Cancellation?
    /// Called on the calling thread after each page, in page order: exactly once per page,
    /// the last time with `completed == total`.
    public var progress: ((BatchProgress) -> Void)?

    /// Options for `jobs` workers, stopped by `cancellation`, reporting to `progress` after each
    /// page.
    public init(jobs: Int = BatchOptions.defaultJobs, cancellation: Cancellation? = nil, progress: ((BatchProgress) -> Void)? = nil) {
        self.jobs = jobs
        self.cancellation = cancellation
        self.progress = progress
    }

    /// The number of processors this process may use.
    public static var defaultJobs: Int { ProcessInfo.processInfo.activeProcessorCount }
}

extension Document {
    /// Runs `work` on each page of `pages` and hands each result to `deliver`, in the order
    /// of `pages`, on the calling thread.
    ///
    /// With more than one job, `work` runs on worker threads, each on a document of its own
    /// opened from the same source with the same renderer and text recognition (what `work`
    /// is given), so results equal those of one job as long as the file is not replaced
    /// meanwhile (workers read it again). A document with unsaved changes uses one job: only it holds them. The first error (from `work`, `deliver` or opening a worker's document) stops
    /// the workers and is thrown; so is `cancelled` when the cancellation is cancelled.
    /// At most `4 x jobs` results wait for delivery at any time.
    public func forEachPage<T: Sendable>(
        _ pages: [Int], options: BatchOptions = BatchOptions(),
        work: @escaping @Sendable (Document, Int) throws -> T,
        deliver: (Int, T) throws -> Void
    ) throws {
        let (renderer, source, unsaved) = engine.withLock { ($0.renderer, $0.source, $0.hasUnsavedChanges) }
        let jobs = unsaved ? 1 : max(1, min(options.jobs, pages.count))
        var completed = 0
        func finish(_ index: Int, _ result: T) throws {
            try deliver(index, result)
            completed += 1
            options.progress?(BatchProgress(pageIndex: index, completed: completed, total: pages.count))
        }
        guard jobs > 1 else {
            for index in pages {
                try options.cancellation?.check()
                try Self.checkCancellation()
                try finish(index, try work(self, index))
            }
            return
        }
        let batch = PageBatch<T>(pages: pages, window: 4 * jobs, cancellation: options.cancellation)
        let (password, limits, recognition) = (self.password, self.limits, self.textRecognition)
        for _ in 0..<jobs {
            let started = DetachedThread.start {
                batch.runWorker {
                    _ = try source.sniffContentType()
                    let copy = try Document(renderer: renderer, source: source, password: password, limits: limits)
                    copy.textRecognition = recognition
                    return copy
                } work: { try work($0, $1) }
            }
            if !started { batch.workerCouldNotStart(RendererError(.ioFailure, "the system gave no thread for a batch worker")) }
        }
        // The workers have returned (their documents closed, their files written) whenever
        // this returns or throws.
        defer {
            batch.stop()
            batch.waitForWorkers(jobs)
        }
        for position in pages.indices {
            let result = try batch.waitForResult(at: position)
            try options.cancellation?.check()
            try Self.checkCancellation()
            try finish(pages[position], result)
        }
    }
}

/// The shared state of one ``Document/forEachPage(_:options:work:deliver:)`` run.
///
/// `@unchecked Sendable`: every stored property but the constants is read and written
/// only with `condition` locked.
private final class PageBatch<T: Sendable>: @unchecked Sendable {
    private let pages: [Int]
    private let window: Int
    private let cancellation: Cancellation?
    private let condition = ThreadCondition()
    private var nextToTake = 0
    private var delivered = 0
    private var results: [Int: Result<T, any Error>] = [:]
    private var stopped = false
    /// Why a worker could not start; the batch stops.
    private var openFailure: (any Error)?
    private var finishedWorkers = 0

    init(pages: [Int], window: Int, cancellation: Cancellation?) {
        self.pages = pages
        self.window = window
        self.cancellation = cancellation
    }

    /// Takes pages until none are left or the batch stops, working on a document of its own.
    func runWorker(open: () throws -> Document, work: (Document, Int) throws -> T) {
        defer { locked { finishedWorkers += 1 } }
        let document: Document
        do {
            document = try open()
        } catch {
            stop(because: error)
            return
        }
        while let position = claim() {
            let outcome = Result { () throws -> T in
                try cancellation?.check()
                return try work(document, pages[position])
            }
            locked { results[position] = outcome }
        }
    }

    /// The next position to work on, waiting while the window of undelivered results is
    /// full; nil when there is none or the batch stopped.
    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && nextToTake < pages.count && nextToTake - delivered >= window { condition.wait() }
        guard !stopped, nextToTake < pages.count else { return nil }
        nextToTake += 1
        return nextToTake - 1
    }

    /// The result for `position`, once a worker has it; throws its error, or why a worker
    /// could not start.
    func waitForResult(at position: Int) throws -> T {
        condition.lock()
        defer { condition.unlock() }
        while results[position] == nil {
            if let openFailure { throw openFailure }
            condition.wait()
        }
        let result = results.removeValue(forKey: position)!
        delivered = position + 1
        condition.broadcast()
        return try result.get()
    }

    /// Runs `body` with the condition locked, then wakes every waiter.
    private func locked(_ body: () -> Void) {
        condition.lock()
        body()
        condition.broadcast()
        condition.unlock()
    }

    /// Counts a worker that has no thread as finished, and stops the batch with `error`.
    func workerCouldNotStart(_ error: any Error) {
        stop(because: error)
        locked { finishedWorkers += 1 }
    }

    /// Stops the batch with why a worker could not start.
    private func stop(because error: any Error) {
        locked {
            openFailure = openFailure ?? error
            stopped = true
        }
    }

    /// Makes the workers stop taking pages.
    func stop() {
        locked { stopped = true }
    }

    /// Waits until all `count` workers have returned (their documents closed).
    func waitForWorkers(_ count: Int) {
        condition.lock()
        while finishedWorkers < count { condition.wait() }
        condition.unlock()
    }
}

extension Document {
    /// Throws `cancelled` when the current task has been cancelled: a batch run from a task
    /// stops between pages when the task is cancelled.
    static func checkCancellation() throws {
        if Task.isCancelled { throw RendererError(.cancelled, "the operation was cancelled") }
    }
}
