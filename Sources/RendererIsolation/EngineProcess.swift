#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ProcessSpawning
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// One running engine process and the socket to it; the process is killed and reaped, and
/// the socket closed, when this goes away.
final class EngineProcess {
    let channel: MessageChannel
    private let child: ChildProcess

    /// The process id.
    var pid: pid_t { child.pid }

    /// Starts `executable` with `arguments`, its standard input and output being one end of
    /// a new socket pair, its standard error the caller's, and no other descriptor of the
    /// caller's (``ChildProcess``). It gets the caller's environment, with Swift's crash
    /// backtraces off unless SWIFT_BACKTRACE sets them: an engine crash is reported as an
    /// error, and the input that caused it is what reproduces it.
    init(executable: String, arguments: [String]) throws {
        var sockets: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw RendererError(.engineFailure, "cannot start an engine process: \(String(cString: strerror(errno)))")
        }
        defer { close(sockets[1]) }
        var environment = ProcessInfo.processInfo.environment
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        do {
            child = try ChildProcess(
                executable, arguments, environment: environment,
                standardInput: .descriptor(sockets[1]), standardOutput: .descriptor(sockets[1]), standardError: .descriptor(2))
        } catch {
            close(sockets[0])
            throw RendererError(.engineFailure, "cannot start the engine process: \(error)")
        }
        channel = MessageChannel(descriptor: sockets[0])
    }

    /// Kills the process (if it still runs) and waits for it to end.
    func kill() {
        child.signal(SIGKILL)
        child.wait()
    }

    /// Waits for the process to end and describes how it ended: "was ended by signal 11
    /// (Segmentation fault)" or "exited with status 3".
    func waitForExit() -> String {
        child.wait().description
    }

    deinit {
        close(channel.descriptor)
        kill()
    }
}
