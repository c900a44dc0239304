import Foundation
import ProcessSpawning
import RendererProvider

/// Runs a command-line program to completion and captures what it printed.
public struct Tool {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String

        public var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments`, and `input`
    /// (at most a pipe's worth) on its standard input.
    /// The wait happens on a thread of its own (``onOwnThread(_:)``), never on one of the
    /// cooperative pool's.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil) async throws -> Result {
        try await onOwnThread { try runBlocking(executable, arguments, environment: environment, input: input) }
    }

    /// ``run(_:_:environment:input:)`` on the calling thread, for the few callers that cannot
    /// wait asynchronously (a static value's initialiser); it holds that thread until the
    /// program ends, so it is for short programs only.
    @discardableResult
    public static func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws -> Result {
        let output = try ProcessPipe(), errors = try ProcessPipe(), standardInput = try ProcessPipe()
        let child = try ChildProcess(
            executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            standardInput: input == nil ? .null : .descriptor(standardInput.reading),
            standardOutput: .descriptor(output.writing), standardError: .descriptor(errors.writing))
        output.closeWriting()
        errors.closeWriting()
        standardInput.closeReading()
        if let input {
            _ = input.withUnsafeBytes { write(standardInput.writing, $0.baseAddress, $0.count) }
        }
        standardInput.closeWriting()
        let (outData, errData) = readUntilExit(child, output: output.reading, errors: errors.reading)
        return Result(status: child.wait().status, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Reads both pipes while `child` runs, so neither can fill up and block it, and stops
    /// at their ends or, once the child has ended, when nothing more is waiting in them.
    /// It never waits for the end of a pipe alone: a process started elsewhere in the test
    /// run at the same moment may hold a pipe's writing end open long after this one ended.
    private static func readUntilExit(_ child: ChildProcess, output: Int32, errors: Int32) -> (Data, Data) {
        var collected = [Data(), Data()]
        var open = [output, errors]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open.contains(where: { $0 >= 0 }) {
            let ended = !child.isRunning
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), ended ? 0 : 50)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 && ended { break }
            for index in polled.indices where polled[index].revents != 0 {
                let count = read(polled[index].fd, &buffer, buffer.count)
                if count > 0 {
                    collected[index].append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    open[index] = -1  // its end (a negative descriptor is skipped by poll)
                }
            }
        }
        return (collected[0], collected[1])
    }

    /// A new empty directory under the system's temporary directory.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("renderer-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension ChildProcess.Termination {
    /// The exit status, or the number of the signal that ended it, as Foundation's `Process`
    /// answered: what the tests' results hold.
    public var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): signal
        }
    }
}
