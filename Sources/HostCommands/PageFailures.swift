import ArgumentParser
import RendererProvider

/// The pages of a batch that failed on their own (damaged, past a limit, the engine failing
/// or crashing on them) while the batch went on with the next page. Each is reported on
/// stderr as it happens; ``finish()`` ends the command with the worst page's exit code.
struct PageFailures {
    private(set) var count = 0
    private var exitCode: Int32 = 0

    /// Whether a failure of one page leaves the other pages worth trying: anything else
    /// (cancelled, an output that cannot be written, a wrong password) stops the batch.
    static func isPageLocal(_ error: RendererError) -> Bool {
        switch error.code {
        case .damaged, .engineFailure, .engineCrashed, .limitExceeded: true
        default: false
        }
    }

    /// Runs `body` for the page at `index`; a page-local failure is returned, anything else thrown.
    static func catching<T>(_ body: () throws -> T) throws -> Result<T, RendererError> {
        do {
            return .success(try body())
        } catch let error as RendererError where isPageLocal(error) {
            return .failure(error)
        }
    }

    /// Reports the failure of the page numbered `number` and remembers its exit code.
    mutating func record(_ error: RendererError, page number: Int) {
        Failure.printError("page \(number): \(error.description)")
        count += 1
        exitCode = max(exitCode, Failure.exitCode(for: error))
    }

    /// Ends the command with the worst exit code if any page failed.
    func finish() throws {
        if count > 0 { throw ExitCode(exitCode) }
    }
}
