import CProcessSpawn
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program started with `posix_spawn` that holds, of its parent's descriptors, only the
/// three it is given as its standard input, output and error: no pipe, file or connection
/// the parent has open, close-on-exec or not, is held open by a child that outlives its use.
///
/// Foundation's `Process` is not used for this: on Linux it lists `/proc/self/fd` to close
/// the parent's descriptors one by one, and that listing reads past its buffer now and then
/// in a process with many threads and descriptors (a crash in `Process.run()`, seen in the
/// test runs). glibc closes them all with one file action here.
///
/// The value owns the child: it is reaped once, by ``wait()`` or ``termination``, and every
/// later call answers the same. Nothing kills it when the value goes; ``signal(_:)`` does.
public final class ChildProcess: Sendable {
    /// How a child ended.
    public enum Termination: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)

        /// "exited with status 3", or "was ended by signal 11 (Segmentation fault)".
        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "was ended by signal \(signal) (\(String(cString: strsignal(signal))))"
            }
        }
    }

    /// Where one of the child's three standard descriptors comes from.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// This descriptor of the parent's (which the parent keeps; close it after starting).
        case descriptor(Int32)
    }

    /// The child's process id.
    public let pid: pid_t
    /// How it ended, once reaped.
    private let ended = Mutex<Termination?>(nil)

    /// Starts `executable` (a path, or a name looked up on the PATH) with `arguments` and
    /// `environment` (the parent's when nil); with `ownProcessGroup`, as the leader of a
    /// process group of its own, so that ``signalGroup(_:)`` reaches the processes it starts
    /// too. Throws ``SpawnError`` when it cannot start.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null, ownProcessGroup: Bool = false
    ) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownProcessGroup {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            // glibc clears close-on-exec when a descriptor is given its own number.
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        let closing = process_spawn_close_from(&actions, 3)
        guard closing == 0 else { throw SpawnError(executable: executable, code: closing) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var envp: [UnsafeMutablePointer<CChar>?] = []
        if let environment { envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for entry in envp { free(entry) } }
        var pid: pid_t = 0
        let status: Int32 =
            if envp.isEmpty {
                executable.contains("/") ? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
                    : posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
            } else {
                executable.contains("/") ? posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
                    : posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
            }
        guard status == 0 else { throw SpawnError(executable: executable, code: status) }
        self.pid = pid
    }

    /// How it ended, waiting for it to end. The wait does not hold the value: ``signal(_:)``
    /// and ``termination`` answer meanwhile from other threads.
    @discardableResult
    public func wait() -> Termination {
        if let ended = termination { return ended }
        // Waits for the end without reaping, so that no other call can meet a reused pid.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        return ended.withLock { ended in
            if let ended { return ended }  // reaped by another call meanwhile
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let termination = Self.termination(status)
            ended = termination
            return termination
        }
    }

    /// How it ended, or nil while it runs.
    public var termination: Termination? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            ended = Self.termination(status)
            return ended
        }
    }

    /// Whether it still runs.
    public var isRunning: Bool { termination == nil }

    /// Sends it `signal` (SIGTERM, SIGKILL) unless it has been reaped.
    public func signal(_ signal: Int32) {
        ended.withLock { ended in
            if ended == nil { _ = kill(pid, signal) }
        }
    }

    /// Sends `signal` to the process group it leads (started with `ownProcessGroup`): it and
    /// every process it started that stayed in the group, even once it has ended.
    public func signalGroup(_ signal: Int32) {
        _ = kill(-pid, signal)
    }

    private static func termination(_ status: Int32) -> Termination {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}

/// A program that could not be started: its name and the system's reason.
public struct SpawnError: Error, CustomStringConvertible, Sendable {
    /// The program asked for.
    public var executable: String
    /// The `errno` value `posix_spawn` answered.
    public var code: Int32

    public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
}
