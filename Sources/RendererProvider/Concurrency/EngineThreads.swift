#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The project's own threads for engine work called from async code. Engines block for as
/// long as a page takes; run on Swift's cooperative pool (as many threads as processors),
/// a few renders would stall every other task of the process. Async methods hand their
/// engine work here instead, and wait without holding a thread.
///
/// Work runs in the order it was submitted, on at most ``threadCount`` threads at once. A
/// task cancelled while its work waits or runs cancels that work's `Cancellation`: work
/// not yet started throws `cancelled` without running, and running work stops where the
/// engine can (MuPDF within a page, Poppler before the next).
public final class EngineThreads: @unchecked Sendable {
    // @unchecked Sendable: `jobs`, `started`, `running` and `idleWaiters` are only touched
    // while `available` is locked.
    /// The threads every async method of the API uses: as many as processors, at least two.
    public static let shared = EngineThreads(threadCount: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// How many threads run engine work at once.
    public let threadCount: Int
    private let available = ThreadCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var started = 0
    private var running = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// A pool of at most `threadCount` threads, started as work arrives and kept.
    public init(threadCount: Int) {
        precondition(threadCount > 0, "an engine pool needs a thread")
        self.threadCount = threadCount
    }

    /// Runs `body` on one of the pool's threads with a cancellation that the current task's
    /// cancellation cancels, and returns what it returns. Throws `cancelled` when the task
    /// is cancelled before the work starts.
    public func run<T: Sendable>(_ body: @escaping @Sendable (Cancellation) throws -> T) async throws -> T {
        let cancellation = Cancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                submit {
                    do {
                        try cancellation.check()
                        continuation.resume(returning: try body(cancellation))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Returns when no work is running or waiting on the pool's threads, each job's closure
    /// let go of (work submitted meanwhile is waited for too). A process waits for this
    /// before it exits: an engine's static data is destroyed at exit, under any thread still
    /// drawing or freeing a document.
    public func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            available.lock()
            let isIdle = jobs.isEmpty && running == 0
            if !isIdle { idleWaiters.append(continuation) }
            available.unlock()
            if isIdle { continuation.resume() }
        }
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        available.lock()
        jobs.append(job)
        let startThread = started < threadCount
        if startThread { started += 1 }
        available.signal()
        available.unlock()
        guard startThread, !DetachedThread.start({ [self] in work() }) else { return }
        // The system gave no thread: another takes the job, or, when there is none, the caller.
        available.lock()
        started -= 1
        let orphan = started == 0 ? jobs.popLast() : nil
        available.unlock()
        orphan?()
    }

    /// One thread's loop: the next job, or a wait for one.
    private func work() {
        while true {
            available.lock()
            while jobs.isEmpty { available.wait() }
            var job: (@Sendable () -> Void)? = jobs.removeFirst()
            running += 1
            available.unlock()
            job?()
            // Released before the job counts as ended: what it captured (a document) is freed here.
            job = nil
            available.lock()
            running -= 1
            let woken = jobs.isEmpty && running == 0 ? idleWaiters : []
            if !woken.isEmpty { idleWaiters.removeAll() }
            available.unlock()
            woken.forEach { $0.resume() }
        }
    }
}
