#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// Ends hostapp with a `limit exceeded` error when the engine, working in this process, makes
/// no progress for twice `--time-limit`.
///
/// The time limit stops MuPDF within a page, but nothing can stop an engine that is caught in
/// a loop of its own (MuPDF 1.21 loops forever loading some damaged page trees) or a Poppler
/// page that runs on: in this process, ending hostapp is the only way not to hang. Output
/// already written stays; files being written are left as hidden `.partial` files that the
/// next save to the same path removes. `--isolate` contains such files without ending hostapp.
package enum StallWatch {
    private struct State {
        var file = ""
        var allowance = Duration.zero
        /// When hostapp ends unless the engine progresses; nil while nothing is being done
        /// (an interactive session waiting for its next command).
        var deadline: ContinuousClock.Instant?
        /// Whether the watching thread runs.
        var watching = false
    }

    private static let state = Locked(State())

    /// Starts watching the engine's work on `file`, allowing it twice `timeLimit` before each
    /// step of progress; without a time limit, nothing is watched.
    static func start(file: String, timeLimit: Duration?) {
        guard let timeLimit else { return }
        let isFirst = state.withLock { state in
            let isFirst = !state.watching
            state = State(file: file, allowance: timeLimit * 2, deadline: .now + timeLimit * 2, watching: true)
            return isFirst
        }
        if isFirst { startWatching() }
    }

    /// Notes that the engine finished a step (a page), which earns it a new allowance.
    static func progress() {
        state.withLock { state in
            if state.deadline != nil { state.deadline = .now + state.allowance }
        }
    }

    /// Notes that nothing is being done until ``resume()``: the time an interactive session
    /// waits for its reader's next command is no engine's stall.
    package static func pause() {
        state.withLock { $0.deadline = nil }
    }

    /// Notes that work begins again after ``pause()``, with a whole allowance.
    package static func resume() {
        state.withLock { state in
            if state.watching { state.deadline = .now + state.allowance }
        }
    }

    /// Runs ``watch()`` on a thread of its own.
    private static func startWatching() {
        DetachedThread.start { watch() }
    }

    private static func watch() {
        while true {
            let (file, allowance, deadline) = state.withLock { ($0.file, $0.allowance, $0.deadline) }
            guard let deadline else {
                usleep(1_000_000)
                continue
            }
            let remaining = deadline - .now
            guard remaining <= .zero else {
                usleep(UInt32(min(1, remaining / .seconds(1)) * 1e6))
                continue
            }
            fflush(nil)
            Failure.printError(
                "\(file): the engine made no progress for \(String(printf: "%g", allowance / .seconds(1))) s (twice --time-limit) and cannot be "
                    + "stopped in this process, so hostapp stops; --isolate contains such files")
            _exit(Failure.exitCode(for: RendererError(.limitExceeded, "")))
        }
    }
}
