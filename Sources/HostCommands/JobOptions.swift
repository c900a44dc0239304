import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// `--jobs` for commands that work through many pages.
package struct JobOptions: ParsableArguments {
    package init() {}

    @Option(help: "Worker threads, each with its own copy of the document (default: the number of processors).")
    package var jobs: Int = BatchOptions.defaultJobs

    package func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }
}

/// Turns Ctrl-C (SIGINT) and SIGTERM into a cancellation while it is kept alive, so that a
/// long command stops between pages (MuPDF within one) and leaves no half-written file.
package final class InterruptWatch {
    package let cancellation = Cancellation()
    private var sources: [any DispatchSourceSignal] = []

    package init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [cancellation] in cancellation.cancel() }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
