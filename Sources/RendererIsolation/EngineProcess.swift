#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CProcessSpawn
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// One running engine process and the socket to it; the process is killed and reaped, and
/// the socket closed, when this goes away.
final class EngineProcess {
    let pid: pid_t
    let channel: MessageChannel
    private var reaped = false

    /// Starts `executable` with `arguments`, its standard input and output being one end of
    /// a new socket pair (its standard error is the caller's) and no other descriptor of the
    /// caller's: a pipe, file or connection the caller has open, close-on-exec or not, is
    /// not held open by an engine process that outlives its use. It gets the caller's
    /// environment, with Swift's crash backtraces off unless SWIFT_BACKTRACE sets them: an
    /// engine crash is reported as an error, and the input that caused it is what reproduces it.
    init(executable: String, arguments: [String]) throws {
        var sockets: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw RendererError(.engineFailure, "cannot start an engine process: \(String(cString: strerror(errno)))")
        }
        defer { close(sockets[1]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, sockets[1], 0)
        posix_spawn_file_actions_adddup2(&actions, sockets[1], 1)
        let closing = process_spawn_close_from(&actions, 3)
        guard closing == 0 else {
            close(sockets[0])
            throw RendererError(.engineFailure, "cannot start an engine process: \(String(cString: strerror(closing)))")
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var environment = ProcessInfo.processInfo.environment
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for entry in envp { free(entry) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else {
            close(sockets[0])
            throw RendererError(.engineFailure, "cannot start the engine process \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        channel = MessageChannel(descriptor: sockets[0])
    }

    /// Kills the process (if it still runs) and waits for it to end.
    func kill() {
        guard !reaped else { return }
        _ = Glibc.kill(pid, SIGKILL)
        _ = waitForExit()
    }

    /// Waits for the process to end and describes how it ended: "was killed by signal 11
    /// (Segmentation fault)" or "exited with status 3".
    func waitForExit() -> String {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        let signal = status & 0x7f
        if signal != 0 { return "was ended by signal \(signal) (\(String(cString: strsignal(signal))))" }
        return "exited with status \((status >> 8) & 0xff)"
    }

    deinit {
        close(channel.descriptor)
        kill()
    }
}
