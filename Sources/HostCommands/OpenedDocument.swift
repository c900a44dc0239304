import Foundation
import RendererIsolation
import RendererProvider

/// A document open for info, render or text: in this process, or with --isolate in an
/// engine process of its own. Both are read through `DocumentReading`; only how pages are
/// spread over workers differs.
enum OpenedDocument {
    case local(Document)
    case isolated(IsolatedDocument)

    /// The document, whichever way it is open.
    var reader: any DocumentReading {
        switch self {
        case .local(let document): document
        case .isolated(let document): document
        }
    }

    /// Runs `work` on each page and hands each outcome to `deliver` in page order. A page
    /// that fails on its own (``PageFailures/isPageLocal(_:)``) is delivered as a failure
    /// and the run goes on; any other error stops it. In this process, `jobs` workers
    /// share the pages; in isolation, one engine process works through them in turn and
    /// is started again after a crash.
    func forEachPage<T: Sendable>(
        _ pages: [Int], jobs: Int, cancellation: Cancellation, progress: @escaping (Int) -> Void,
        work: @escaping @Sendable (any DocumentReading, Int) throws -> T,
        deliver: (Int, Result<T, RendererError>) throws -> Void
    ) throws {
        switch self {
        case .local(let document):
            let batch = BatchOptions(jobs: jobs, cancellation: cancellation) {
                StallWatch.progress()
                progress($0.completed)
            }
            try document.forEachPage(pages, options: batch) { document, index in
                try PageFailures.catching { try work(document, index) }
            } deliver: { try deliver($0, $1) }
        case .isolated(let document):
            for (done, index) in pages.enumerated() {
                try cancellation.check()
                let result = try PageFailures.catching { try work(document, index) }
                try cancellation.check()
                try deliver(index, result)
                progress(done + 1)
            }
        }
    }
}
