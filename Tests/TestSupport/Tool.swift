import Foundation
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
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
        }
        // Read both pipes while the process runs, so neither can fill up and block it.
        let errData = Locked(Data())
        let errRead = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            errRead.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errRead.wait()
        return Result(status: process.terminationStatus, stdout: outData, stderr: errData.withLock { String(decoding: $0, as: UTF8.self) })
    }

    /// A new empty directory under the system's temporary directory.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("renderer-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
