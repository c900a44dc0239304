import Foundation

/// A value that threads share, read and changed only while its lock is held, where the
/// thread holding the lock may take it again: for state whose owner calls out (to a
/// delegate) while holding it, and whose callee may call back in.
package final class RecursiveLocked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSRecursiveLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; `body` may call `withLock` again on the
    /// same thread.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
