import Synchronization

/// Stops a long operation: call ``cancel()`` from any thread, and the operation given this
/// cancellation throws `cancelled` at its next check (between pages, and within a page
/// where the engine can stop there).
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    private let handlers = Mutex<[Int: @Sendable () -> Void]>([:])
    private let nextHandler = Atomic<Int>(0)

    public init() {}

    public func cancel() {
        guard !flag.exchange(true, ordering: .sequentiallyConsistent) else { return }
        for handler in handlers.withLock({ Array($0.values) }) { handler() }
    }

    public var isCancelled: Bool { flag.load(ordering: .sequentiallyConsistent) }

    /// Throws `cancelled` once ``cancel()`` has been called.
    public func check() throws {
        if isCancelled { throw RendererError(.cancelled, "the operation was cancelled") }
    }

    /// Runs `body`, calling `onCancel` from the cancelling thread if ``cancel()`` is called
    /// while `body` runs, or at once when it was called before (it may be called twice:
    /// make it idempotent). For engines that can stop in the middle of their work.
    public func whileRunning<T>(_ body: () throws -> T, onCancel: @escaping @Sendable () -> Void) rethrows -> T {
        let key = nextHandler.wrappingAdd(1, ordering: .relaxed).oldValue
        handlers.withLock { $0[key] = onCancel }
        defer { handlers.withLock { _ = $0.removeValue(forKey: key) } }
        if isCancelled { onCancel() }
        return try body()
    }
}
