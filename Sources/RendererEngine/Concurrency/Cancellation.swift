import Dispatch
import Synchronization

/// Stops a long operation: call ``cancel()`` from any thread, and the operation given this
/// cancellation throws `cancelled` at its next check (between pages, and within a page
/// where the engine can stop there).
///
/// A cancellation can also carry a time limit, which makes it cancel itself once the time
/// has passed; the operation then throws `limitExceeded` instead. One made `within` another
/// is cancelled with it, so a per-page time limit still stops when the whole batch is
/// cancelled.
public final class Cancellation: Sendable {
    private let reason = Locked<RendererError?>(nil)
    private let handlers = Locked<[Int: @Sendable () -> Void]>([:])
    private let nextHandler = Atomic<Int>(0)
    /// The handler this cancellation registered with its parent, removed when it goes.
    private let link: (parent: Cancellation, key: Int)?
    /// When the time limit runs out, and the error it gives, checked by every query so that
    /// an expired limit is seen even before its timer has fired.
    private let timeLimit: (deadline: ContinuousClock.Instant, error: RendererError)?
    /// The time limits' timers run here: a queue of its own gets a thread when the shared
    /// pool's threads are all busy (with the work being timed, say).
    private static let timers = DispatchQueue(label: "RendererProvider.Cancellation.timeLimits")

    /// A cancellation that stops its operation when ``cancel()`` is called, when `timeLimit`
    /// (if any) has passed since it was made, or when `parent` (if any) is cancelled.
    public init(timeLimit: Duration? = nil, within parent: Cancellation? = nil) {
        self.timeLimit = timeLimit.map {
            (ContinuousClock.now + $0, RendererError(.limitExceeded, "the operation took longer than its time limit of \(Self.describe($0))"))
        }
        if let parent {
            let key = parent.nextHandler.wrappingAdd(1, ordering: .relaxed).oldValue
            link = (parent, key)
            parent.handlers.withLock { $0[key] = { [weak self] in self?.cancel(because: parent.error) } }
            if parent.isCancelled { cancel(because: parent.error) }
        } else {
            link = nil
        }
        if let timeLimit, let error = self.timeLimit?.error {
            let (seconds, attoseconds) = timeLimit.components
            let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
            Self.timers.asyncAfter(deadline: .now() + .nanoseconds(Int(min(nanoseconds, 1e17)))) { [weak self] in
                self?.cancel(because: error)
            }
        }
    }

    deinit {
        if let link { _ = link.parent.handlers.withLock { $0.removeValue(forKey: link.key) } }
    }

    /// Cancels the work this cancellation (or one made within it) was given; safe from any thread,
    /// and again.
    public func cancel() {
        cancel(because: RendererError(.cancelled, "the operation was cancelled"))
    }

    private func cancel(because error: RendererError) {
        let first = reason.withLock { reason in
            guard reason == nil else { return false }
            reason = error
            return true
        }
        guard first else { return }
        for handler in handlers.withLock({ Array($0.values) }) { handler() }
    }

    /// True once cancelled, or once the time limit (this one's or a parent's) has passed.
    public var isCancelled: Bool { currentReason != nil }

    /// What an operation stopped by this cancellation throws: `cancelled`, or
    /// `limitExceeded` when its time limit ran out.
    public var error: RendererError {
        currentReason ?? RendererError(.cancelled, "the operation was cancelled")
    }

    /// Throws ``error`` once the cancellation has been cancelled or its time has run out.
    public func check() throws {
        if let error = currentReason { throw error }
    }

    /// Why the operation must stop, if it must; a time limit that has run out cancels now.
    private var currentReason: RendererError? {
        if let reason = reason.withLock({ $0 }) { return reason }
        guard let timeLimit, ContinuousClock.now >= timeLimit.deadline else { return nil }
        cancel(because: timeLimit.error)
        return reason.withLock { $0 }
    }

    /// Runs `body`, calling `onCancel` from the cancelling thread if ``cancel()`` is called
    /// while `body` runs, or at once when it was called before (it may be called twice:
    /// make it idempotent). For engines that can stop in the middle of their work; an engine
    /// stopped this way throws ``error``, so that a time limit reads as one.
    public func whileRunning<T>(_ body: () throws -> T, onCancel: @escaping @Sendable () -> Void) rethrows -> T {
        let key = nextHandler.wrappingAdd(1, ordering: .relaxed).oldValue
        handlers.withLock { $0[key] = onCancel }
        defer { handlers.withLock { _ = $0.removeValue(forKey: key) } }
        if isCancelled { onCancel() }
        return try body()
    }

    private static func describe(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds.truncatingRemainder(dividingBy: 1) == 0 ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
