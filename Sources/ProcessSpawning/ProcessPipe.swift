import CProcessSpawn

#if canImport(Glibc)
    import Glibc
#endif

/// A pipe to or from a ``ChildProcess``: both ends close-on-exec, so that only a child
/// given an end holds it, and each closed once, by the calls below or when the value goes.
public final class ProcessPipe {
    /// The reading end, or -1 once closed or taken.
    public private(set) var reading: Int32
    /// The writing end, or -1 once closed.
    public private(set) var writing: Int32

    /// Opens a pipe; throws ``SpawnError`` when the process has no descriptor left.
    public init() throws {
        var ends: [Int32] = [-1, -1]
        guard process_spawn_pipe(&ends) == 0 else { throw SpawnError(executable: "a pipe", code: errno) }
        (reading, writing) = (ends[0], ends[1])
    }

    /// Closes the reading end.
    public func closeReading() {
        if reading >= 0 { close(reading) }
        reading = -1
    }

    /// Closes the writing end (the reader then meets the end once every child holding it has too).
    public func closeWriting() {
        if writing >= 0 { close(writing) }
        writing = -1
    }

    /// The reading end, which the caller now owns and closes.
    public func takeReading() -> Int32 {
        defer { reading = -1 }
        return reading
    }

    /// The writing end, which the caller now owns and closes.
    public func takeWriting() -> Int32 {
        defer { writing = -1 }
        return writing
    }

    deinit {
        closeReading()
        closeWriting()
    }

    /// Writes `bytes` (no more than a pipe holds) to `fd`, the writing end of a pipe; false
    /// when not all were written. A reader that has gone makes the write fail, and the
    /// SIGPIPE it raises is blocked on this thread and taken, never delivered to the process.
    @discardableResult
    public static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var written = -1
        repeat { written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } } while written < 0 && errno == EINTR
        if written < 0 && errno == EPIPE {
            var now = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &now)
        }
        return written == bytes.count
    }
}
