/// An object that threads share, used only while its lock is held, where the thread holding
/// the lock may take it again: for state whose owner calls out (to a delegate) while holding
/// it, and whose callee may call back in. The object is handed over by reference, not
/// `inout`, so that a call back in does not overlap an access to it.
package final class RecursiveLocked<Value: AnyObject>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only used inside `withLock`, under `lock`.
    private let lock = ThreadCondition(recursive: true)
    private let value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the object, holding the lock; `body` may call `withLock` again on the
    /// same thread.
    package func withLock<T>(_ body: (Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(value)
    }
}
