import Foundation
import RendererIsolation
import RendererProvider

/// What the commands that work page by page need of one document.
protocol PageReader: Sendable {
    @discardableResult
    func render(pageAt index: Int, options: RenderOptions, as format: ImageFileFormat, to path: String, cancellation: Cancellation?) throws
        -> (width: Int, height: Int)
    func text(pageAt index: Int) throws -> String
    func textPage(pageAt index: Int) throws -> TextPage
}

extension Document: PageReader {}
extension IsolatedDocument: PageReader {}

/// A document open for info, render or text: in this process, or with --isolate in an
/// engine process of its own.
enum OpenedDocument {
    case local(Document)
    case isolated(IsolatedDocument)

    var pageCount: Int {
        switch self {
        case .local(let document): document.pageCount
        case .isolated(let document): document.pageCount
        }
    }

    /// The renderer's id, and the engine's name and version.
    var backend: (id: String, engine: String) {
        switch self {
        case .local(let document): (document.renderer.id, "\(document.renderer.engineName) \(document.renderer.engineVersion)")
        case .isolated(let document): (document.backend, "\(document.engineName) \(document.engineVersion)")
        }
    }

    func info() throws -> DocumentInfo {
        switch self {
        case .local(let document): try document.info()
        case .isolated(let document): try document.info()
        }
    }

    func pageInfos() throws -> [PageInfo] {
        switch self {
        case .local(let document): try document.pageInfos()
        case .isolated(let document): try document.pageInfos()
        }
    }

    /// Runs `work` on each page and hands each outcome to `deliver` in page order. A page
    /// that fails on its own (``PageFailures/isPageLocal(_:)``) is delivered as a failure
    /// and the run goes on; any other error stops it. In this process, `jobs` workers
    /// share the pages; in isolation, one engine process works through them in turn and
    /// is started again after a crash.
    func forEachPage<T: Sendable>(
        _ pages: [Int], jobs: Int, cancellation: Cancellation, progress: @escaping (Int) -> Void,
        work: @escaping @Sendable (any PageReader, Int) throws -> T,
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
