/// A value that threads share, read and changed only while its lock is held.
///
/// The project uses it instead of the standard library's `Mutex` because on Linux `Mutex`
/// locks in ways ThreadSanitizer cannot see: under `make test-tsan` every access to a
/// `Mutex`'s value would be reported as a race. This lock is a pthread mutex
/// (``ThreadCondition``), which ThreadSanitizer follows.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched inside `withLock`, under `lock`.
    private let lock = ThreadCondition()
    private var value: Value

    package init(_ value: consuming Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; `body` must not call `withLock` on the
    /// same instance.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
