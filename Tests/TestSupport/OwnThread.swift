import Foundation

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

extension Sequence {
    /// The elements transformed by `transform`, one after another, in order: `map` for a
    /// transform that waits (a program run with ``Tool/run(_:_:environment:input:)``).
    public func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
