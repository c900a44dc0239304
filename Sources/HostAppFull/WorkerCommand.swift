import ArgumentParser
import HostCommands
import Foundation
import RendererIsolation

/// The engine process of `--isolate`: hostapp started by itself, serving one document over
/// its standard input and output. Not for people to run.
struct WorkerCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Serve one document to the hostapp that started this one (--isolate).",
        shouldDisplay: false)

    @ParentCommand var hostApp: HostApp

    /// Test hook: given a 1-based page number here or in HOSTAPP_TEST_CRASH_ON_PAGE, the
    /// engine process ends with SIGSEGV when asked about that page, as an engine crash would.
    @Option(name: .customLong("test-crash-on-page"), help: ArgumentHelp(visibility: .private))
    var crashPage: Int?
    @OptionGroup var globalArguments: GlobalArguments

    func run() throws {
        let crashPage = crashPage ?? ProcessInfo.processInfo.environment["HOSTAPP_TEST_CRASH_ON_PAGE"].flatMap(Int.init)
        IsolationWorker.serve(registry: global.registry()) { index in
            guard index + 1 == crashPage else { return }
            // As the kernel would end it: without a handler that might let it go on.
            signal(SIGSEGV, SIG_DFL)
            raise(SIGSEGV)
        }
    }
}
