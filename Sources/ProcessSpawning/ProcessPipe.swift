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

    deinit {
        closeReading()
        closeWriting()
    }
}
