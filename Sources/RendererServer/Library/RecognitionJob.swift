import RendererProvider
import RendererServerHTTP

/// A reading of every page of a served file by text recognition, asked for by a reader
/// (`POST .../recognition`): a page at a time in the background, each through the engine
/// queue (waiting while the server is busy), its progress read while it runs. Pages read go
/// to the store the file's documents share, so that the text and search routes give them
/// at once; a page that has text of its own is only looked at. Cancelling it (or a change of
/// the file) stops it after the page being read.
final class RecognitionJob: Sendable {
    /// What a reading has done, as the recognition routes answer it.
    struct Status: Codable, Sendable {
        /// Where the reading stands.
        var state: State
        /// The pages looked at so far, of ``pageCount``.
        var pagesDone: Int
        var pageCount: Int
        /// The pages read from their image so far (scans).
        var pagesRecognized: Int
        /// Why the reading stopped, when it failed.
        var error: String?
        /// Whether this server reads scans (`--ocr`, or on request).
        var available: Bool
    }

    /// Where a reading stands.
    enum State: String, Codable, Sendable {
        /// None was asked for (or the file changed since).
        case idle
        case running
        /// Every page was looked at.
        case done
        case cancelled
        case failed
    }

    private let status: Locked<Status>
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts reading the `pageCount` pages of `pool`'s file, which read scans into `store`.
    init(pageCount: Int, pool: DocumentPool, store: RecognizedPages, context: ServerContext) {
        let status = Locked(Status(state: .running, pagesDone: 0, pageCount: pageCount, pagesRecognized: store.recognizedCount, available: true))
        self.status = status
        let timeLimit = context.configuration.timeLimit
        task.withLock { task in
            task = Task {
                do {
                    for index in 0..<pageCount {
                        let admission = try await Self.admission(context.queue)
                        _ = try await pool.run(timeLimit: timeLimit) { document, _ in try document.textPage(pageAt: index) }
                        withExtendedLifetime(admission) {}
                        status.withLock {
                            $0.pagesDone = index + 1
                            $0.pagesRecognized = store.recognizedCount
                        }
                    }
                    status.withLock { if $0.state == .running { $0.state = .done } }
                } catch {
                    let cancelled = Task.isCancelled || (error as? RendererError)?.code == .cancelled || error is CancellationError
                    status.withLock { status in
                        status.state = cancelled ? .cancelled : .failed
                        status.error = cancelled ? nil : (error as? RendererError)?.message ?? (error as? APIError)?.message ?? "the reading failed"
                    }
                }
            }
        }
    }

    /// A place in `queue`, waited for while the server is busy; throws when cancelled.
    private static func admission(_ queue: EngineQueue) async throws -> EngineQueue.Admission {
        while true {
            try Task.checkCancellation()
            if let admission = try? queue.admit() { return admission }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// What the reading has done.
    var current: Status { status.withLock { $0 } }

    /// Stops the reading after the page being read.
    func cancel() {
        task.withLock { $0?.cancel() }
        status.withLock { if $0.state == .running { $0.state = .cancelled } }
    }
}
