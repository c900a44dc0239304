import Foundation
import RendererProvider

/// Runs `work` on a thread of its own and waits for it without holding a thread of Swift's
/// cooperative pool.
///
/// That pool has one thread per core (two here) for every test of the run at once. Work that
/// blocks (a program run to its end, a database started, a process waited for) holds a pool
/// thread for as long as it takes; two such waits of minutes stall every other test's tasks,
/// and the request handlers of the servers the tests start, past their deadlines. Blocking
/// work of a test goes through here.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result(catching: work)) }
    }
}

/// Runs `work` on a thread of its own and waits for it at most `deadline`; past it, throws
/// ``Overdue`` and leaves the thread to run until the process ends. A hang guard for work
/// that must end by itself but, when what is tested is broken, would not: never a timing.
public func onOwnThread<T: Sendable>(atMost deadline: Duration, _ work: @escaping @Sendable () throws -> T) async throws -> T {
    let answered = Locked(false)
    let guardTask = Locked<Task<Void, Never>?>(nil)
    return try await withCheckedThrowingContinuation { continuation in
        @Sendable func answer(_ result: Result<T, any Error>) {
            guard answered.withLock({ first in defer { first = true }; return !first }) else { return }
            guardTask.withLock { $0?.cancel() }
            continuation.resume(with: result)
        }
        guardTask.withLock { task in
            task = Task {
                guard (try? await Task.sleep(for: deadline)) != nil else { return }
                answer(.failure(Overdue(deadline: deadline)))
            }
        }
        Thread.detachNewThread { answer(Result(catching: work)) }
    }
}

/// Work that had not ended by its deadline (``onOwnThread(atMost:_:)``).
public struct Overdue: Error, CustomStringConvertible {
    public var deadline: Duration
    public var description: String { "not done after \(deadline)" }
}
