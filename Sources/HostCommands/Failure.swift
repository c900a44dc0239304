import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

/// How hostapp ends when something fails: a message on stderr and an exit code that says
/// whose fault it was (see `hostapp --help`).
package enum Failure {
    package static let usage: Int32 = 64
    package static let document: Int32 = 65
    package static let io: Int32 = 74
    /// The engine's process crashed or was ended (with --isolate).
    package static let engineCrashed: Int32 = 70
    /// The document's settings or the PDF's permissions forbid the operation (EX_NOPERM).
    package static let notPermitted: Int32 = 77
    /// Someone else changed a file meanwhile; nothing was overwritten (EX_TEMPFAIL).
    package static let conflict: Int32 = 75
    /// Stopped by Ctrl-C or SIGTERM, as shells report a process a SIGINT ended.
    package static let interrupted: Int32 = 130

    /// The exit code for an API error.
    package static func exitCode(for error: RendererError) -> Int32 {
        switch error.code {
        case .invalidArgument, .pageOutOfRange, .limitExceeded: usage
        case .fileNotFound, .ioFailure: io
        case .cancelled: interrupted
        case .engineCrashed: engineCrashed
        case .notPermitted: notPermitted
        case .conflict: conflict
        default: document  // unsupported format, damaged, password or key required or wrong, tampered, expired, unsupported
        }
    }

    /// Runs `body`; an API error is printed as `hostapp: error: …` and ends the process
    /// with its exit code.
    package static func reporting(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as RendererError {
            throw ending(with: error)
        }
    }

    /// ``reporting(_:)`` for a command that awaits (a client of a server).
    package static func reporting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as RendererError {
            throw ending(with: error)
        }
    }

    /// Prints `error` as `hostapp: error: …` and answers the exit that ends the process
    /// with its code.
    package static func ending(with error: RendererError) -> ExitCode {
        printError(error.description)
        return ExitCode(exitCode(for: error))
    }

    package static func printError(_ message: String) {
        StandardStream.error.write("hostapp: error: \(message)\n")
    }

    /// Tells on stderr what a command has done so far (a page written), keeping stdout for
    /// results, as mutool and pdftoppm do.
    package static func printProgress(_ message: String) {
        StandardStream.error.write("\(message)\n")
    }

    /// Tells on stderr how hostapp read a request it could still serve.
    package static func printNote(_ message: String) {
        StandardStream.error.write("hostapp: note: \(message)\n")
    }
}

/// A command whose failures are reported the one way hostapp reports them: the API error
/// its ``execute()`` throws is printed as `hostapp: error: …` and ends the process with its
/// exit code (``Failure/reporting(_:)``). A command that reports more than one failure
/// (the pages of a batch, each on its own) writes its own `run()` around that call instead.
package protocol ReportingCommand: ParsableCommand {
    /// What the command does.
    func execute() throws
}

extension ReportingCommand {
    package func run() throws {
        try Failure.reporting { try execute() }
    }
}

/// ``ReportingCommand`` for a command that awaits.
package protocol AsyncReportingCommand: AsyncParsableCommand {
    /// What the command does.
    func execute() async throws
}

extension AsyncReportingCommand {
    package func run() async throws {
        try await Failure.reporting { try await execute() }
    }
}
