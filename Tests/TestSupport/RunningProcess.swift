import Foundation
import RendererProvider

/// A program that runs beside a test (a server, a watcher) while the test goes on.
///
/// Its standard output and error are read on threads of their own as it writes them, so it
/// never blocks on a full pipe, and the test never blocks on a read: every wait here is
/// asynchronous and has a deadline, and none waits for the end of a pipe (which a process
/// started meanwhile elsewhere in the test run may hold open). When the value goes, a
/// program still running is killed.
public final class RunningProcess: Sendable {
    private let process: Locked<Process>
    /// The process id.
    public let pid: Int32
    private let stdout = Locked(Data())
    private let stderr = Locked(Data())

    /// Starts `executable` with `arguments`, its standard input empty.
    public init(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        pid = process.processIdentifier
        self.process = Locked(process)
        for (pipe, buffer) in [(output, stdout), (errors, stderr)] {
            Thread.detachNewThread {
                let handle = pipe.fileHandleForReading
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { return }  // the end of its output
                    buffer.withLock { $0.append(chunk) }
                }
            }
        }
    }

    /// What it printed on standard output so far.
    public var output: String { stdout.withLock { String(decoding: $0, as: UTF8.self) } }

    /// What it printed on standard error so far.
    public var errorOutput: String { stderr.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Whether it is still running.
    public var isRunning: Bool { process.withLock { $0.isRunning } }

    /// Waits until its standard output so far satisfies `condition`, or `timeout` passes, or
    /// it ends; returns whether the output satisfies `condition`.
    @discardableResult
    public func waitForOutput(timeout: Duration = .seconds(120), until condition: (String) -> Bool) async -> Bool {
        await wait(timeout, until: { condition(output) })
    }

    /// Waits until its standard error so far satisfies `condition`, or `timeout` passes, or
    /// it ends; returns whether the error output satisfies `condition`.
    @discardableResult
    public func waitForErrorOutput(timeout: Duration = .seconds(120), until condition: (String) -> Bool) async -> Bool {
        await wait(timeout, until: { condition(errorOutput) })
    }

    private func wait(_ timeout: Duration, until holds: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !holds() {
            guard ContinuousClock.now < deadline, isRunning else {
                try? await Task.sleep(for: .milliseconds(100))  // what it wrote last, still in the pipe
                return holds()
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Sends it SIGTERM and waits until it ends, at most `timeout`, after which it is
    /// killed. Returns its exit status, or nil when it had to be killed.
    @discardableResult
    public func stop(timeout: Duration = .seconds(60)) async -> Int32? {
        if isRunning { kill(pid, SIGTERM) }
        if await waitForExit(timeout) { return process.withLock { $0.terminationStatus } }
        kill(pid, SIGKILL)
        _ = await waitForExit(.seconds(10))
        return nil
    }

    /// Sends it `signal` (SIGHUP, say) while it runs.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Kills it at once with SIGKILL, as a preempted machine or the kernel's OOM killer would:
    /// it cannot clean up. Blocks (at most 10 s) until it has ended, without giving up the
    /// calling thread, so that a busy test run cannot delay the kill.
    public func killAtOnce() {
        if isRunning { kill(pid, SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(10)
        while isRunning && ContinuousClock.now < deadline { usleep(1000) }
    }

    /// Waits until it ends on its own, at most `timeout`; returns its exit status, or nil
    /// when it was still running (it is then left running). The deadline ends a hang; it is
    /// not a timing.
    public func exitStatus(timeout: Duration = .seconds(120)) async -> Int32? {
        await waitForExit(timeout) ? process.withLock { $0.terminationStatus } : nil
    }

    private func waitForExit(_ timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    deinit {
        if process.withLock({ $0.isRunning }) { kill(pid, SIGKILL) }
    }
}
