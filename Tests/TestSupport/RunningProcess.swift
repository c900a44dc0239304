import Foundation
import ProcessSpawning
import RendererProvider

/// A program that runs beside a test (a server, a watcher) while the test goes on.
///
/// Its standard output and error are read on threads of their own as it writes them, so it
/// never blocks on a full pipe, and the test never blocks on a read: every wait here is
/// asynchronous and has a deadline, and none waits for the end of a pipe (which a process
/// started meanwhile elsewhere in the test run may hold open). When the value goes, a
/// program still running is killed.
public final class RunningProcess: Sendable {
    private let child: ChildProcess
    /// The process id.
    public var pid: Int32 { child.pid }
    private let stdout = Locked(Data())
    private let stderr = Locked(Data())

    /// Starts `executable` with `arguments`, its standard input empty.
    public init(_ executable: String, _ arguments: [String]) throws {
        let output = try ProcessPipe(), errors = try ProcessPipe()
        child = try ChildProcess(executable, arguments, standardOutput: .descriptor(output.writing), standardError: .descriptor(errors.writing))
        for (pipe, buffer) in [(output, stdout), (errors, stderr)] {
            pipe.closeWriting()
            let fd = pipe.takeReading()  // the thread below closes it
            Thread.detachNewThread {
                var bytes = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = read(fd, &bytes, bytes.count)
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }  // the end of its output
                    buffer.withLock { $0.append(contentsOf: bytes[0..<count]) }
                }
                close(fd)
            }
        }
    }

    /// What it printed on standard output so far.
    public var output: String { stdout.withLock { String(decoding: $0, as: UTF8.self) } }

    /// What it printed on standard error so far.
    public var errorOutput: String { stderr.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Whether it is still running.
    public var isRunning: Bool { child.isRunning }

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
        child.signal(SIGTERM)
        if await waitForExit(timeout) { return status }
        child.signal(SIGKILL)
        _ = await waitForExit(.seconds(10))
        return nil
    }

    /// Sends it `signal` (SIGHUP, say) while it runs.
    public func send(_ signal: Int32) {
        child.signal(signal)
    }

    /// Kills it at once with SIGKILL, as a preempted machine or the kernel's OOM killer would:
    /// it cannot clean up. Blocks (at most 10 s) until it has ended, without giving up the
    /// calling thread, so that a busy test run cannot delay the kill.
    public func killAtOnce() {
        child.signal(SIGKILL)
        let deadline = ContinuousClock.now + .seconds(10)
        while isRunning && ContinuousClock.now < deadline { usleep(1000) }
    }

    /// Waits until it ends on its own, at most `timeout`; returns its exit status, or nil
    /// when it was still running (it is then left running). The deadline ends a hang; it is
    /// not a timing.
    public func exitStatus(timeout: Duration = .seconds(120)) async -> Int32? {
        await waitForExit(timeout) ? status : nil
    }

    /// Its ``ChildProcess/Termination/status`` once ended.
    private var status: Int32? { child.termination?.status }

    private func waitForExit(_ timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    deinit {
        child.signal(SIGKILL)
        child.wait()
    }
}
