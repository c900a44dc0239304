import Foundation
import RendererProvider
import Testing

@Suite("Cancellation and time limits")
struct CancellationTests {
    @Test func cancellingMakesCheckThrowCancelled() throws {
        let cancellation = Cancellation()
        try cancellation.check()
        cancellation.cancel()
        let error = #expect(throws: RendererError.self) { try cancellation.check() }
        #expect(error?.code == .cancelled)
    }

    @Test func aTimeLimitCancelsWithLimitExceeded() throws {
        // Whether a limit not yet reached leaves the work running is asked of an hour's limit:
        // a loaded machine can take 20 ms between two lines.
        #expect(!Cancellation(timeLimit: .seconds(3600)).isCancelled, "an hour has not passed yet")
        let limit = Cancellation(timeLimit: .milliseconds(20))
        try waitUntil { limit.isCancelled }
        let error = #expect(throws: RendererError.self) { try limit.check() }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message == "the operation took longer than its time limit of 0.02 s")
    }

    /// A cancellation within another stops with it, keeps the parent's reason, and does not
    /// stop its parent.
    @Test func aChildStopsWithItsParentOnly() throws {
        let parent = Cancellation()
        let child = Cancellation(timeLimit: .seconds(3600), within: parent)
        let sibling = Cancellation(within: parent)
        sibling.cancel()
        #expect(!parent.isCancelled && !child.isCancelled)
        parent.cancel()
        #expect(child.isCancelled)
        #expect(child.error.code == .cancelled)
        #expect(Cancellation(within: parent).isCancelled, "made within a parent already cancelled")
    }

    /// A child whose time ran out does not stop its parent.
    @Test func aChildsTimeLimitLeavesTheParentRunning() throws {
        let parent = Cancellation()
        let child = Cancellation(timeLimit: .zero, within: parent)
        try waitUntil { child.isCancelled }
        #expect(child.error.code == .limitExceeded)
        #expect(!parent.isCancelled)
    }

    /// The handler `whileRunning` is given runs when cancelled during the body, and not after.
    @Test func whileRunningCallsTheHandlerOnlyWhileRunning() {
        let cancellation = Cancellation()
        let calls = Counter()
        cancellation.whileRunning({ cancellation.cancel() }, onCancel: { calls.add() })
        #expect(calls.value == 1)
        let later = Cancellation()
        later.whileRunning({}, onCancel: { calls.add() })
        later.cancel()
        #expect(calls.value == 1)
    }

    private final class Counter: Sendable {
        private let count = Locked(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    private func waitUntil(_ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition did not come true within 60 s")
                return
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }
}
