import RendererProvider

extension Document {
    /// Runs `work` on each page and hands each outcome to `deliver` in page order, `jobs`
    /// workers sharing the pages (with --isolate, each in an engine process of its own). A
    /// page that fails on its own (``PageFailures/isPageLocal(_:)``) is delivered as a
    /// failure and the run goes on; any other error stops it. Each page done is progress
    /// for the ``StallWatch``.
    func forEachPage<T: Sendable>(
        _ pages: [Int], jobs: Int, cancellation: Cancellation, progress: @escaping (Int) -> Void,
        work: @escaping @Sendable (Document, Int) throws -> T,
        deliver: (Int, Result<T, RendererError>) throws -> Void
    ) throws {
        let batch = BatchOptions(jobs: jobs, cancellation: cancellation) {
            StallWatch.progress()
            progress($0.completed)
        }
        try forEachPage(pages, options: batch) { document, index in
            try PageFailures.catching { try work(document, index) }
        } deliver: { try deliver($0, $1) }
    }
}
