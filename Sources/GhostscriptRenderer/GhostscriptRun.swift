import CGhostscript
import Foundation
import Logging
import RendererEngine

/// What one run of Ghostscript printed on its standard output and error.
struct GhostscriptRun {
    var output: String
    var messages: String
}

/// Runs of Ghostscript in this process (`cgs_run`): the arguments every run shares, and the
/// errors its failures become. The one place that calls gsapi.
enum Ghostscript {
    static let rendererID = "ghostscript"
    /// The most a run's standard output may hold (a page's text as XML, say).
    static let outputLimit = 256 << 20

    /// Runs Ghostscript with `arguments` after the safe ones every run has (`-dSAFER`, no
    /// pause, quiet), then `program` if given; draws into `target` when given. Throws
    /// `cancellation`'s error when it is cancelled before the run starts or by the time it
    /// ends: a run cannot be stopped within (Debian's libgs never calls gsapi's poll
    /// callback), so a page that takes Ghostscript long takes the caller as long; `--isolate`
    /// bounds it. A run that fails throws `damaged`, with Ghostscript's messages as the
    /// engine's message.
    @discardableResult
    static func run(
        _ arguments: [String], program: String? = nil, target: UnsafeMutablePointer<cgs_target>? = nil,
        cancellation: Cancellation? = nil, doing action: String, logger: Logger
    ) throws -> GhostscriptRun {
        try cancellation?.check()
        let all = ["gs", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dQUIET", "-dNOINTERPOLATE"] + arguments
        var out = cgs_output(bytes: nil, length: 0, capacity: 0, limit: Self.outputLimit, overflowed: 0)
        var err = cgs_output(bytes: nil, length: 0, capacity: 0, limit: 1 << 20, overflowed: 0)
        defer {
            cgs_output_free(&out)
            cgs_output_free(&err)
        }
        let code = withCStrings(all) { argv in cgs_run(Int32(argv.count), argv, program, target, &out, &err) }
        let run = GhostscriptRun(output: text(out), messages: text(err).trimmingCharacters(in: .whitespacesAndNewlines))
        let messages = run.messages
        if !messages.isEmpty { logger.debug("\(messages)", metadata: ["doing": "\(action)"]) }
        if let cancellation, cancellation.isCancelled { throw cancellation.error }
        guard out.overflowed == 0 else {
            throw RendererError(.limitExceeded, "Ghostscript wrote more than \(Self.outputLimit) bytes to \(action)", rendererID: Self.rendererID)
        }
        guard code == 0 else {
            throw RendererError(.damaged, "Ghostscript could not \(action) (error \(code))", rendererID: Self.rendererID, engineMessage: messages)
        }
        return run
    }

    private static func text(_ output: cgs_output) -> String {
        guard let bytes = output.bytes, output.length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: output.length), as: UTF8.self)
    }

    /// `strings` as a C array of C strings for the length of `body`.
    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) })
    }
}
