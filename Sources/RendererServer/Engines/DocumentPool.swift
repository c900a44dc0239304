import Foundation
import RendererProvider
import RendererServerHTTP

/// The engine documents of one file through one renderer: opened when requests need them,
/// up to `capacity` at once (engines allow one thread per document, so this is how many of
/// the file's pages are drawn in parallel), and reused. Engine work never runs on the
/// server's event loops: documents are opened and used on ``EngineThreads``.
actor DocumentPool {
    let path: String
    /// The document's id, which errors name instead of its path.
    let documentID: String
    let rendererID: String
    private let open: @Sendable () throws -> Document
    private let capacity: Int
    private let threads: EngineThreads
    private var idle: [Document] = []
    private var opened = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Who waits in ``close()`` for the leased documents to come back.
    private var drained: [CheckedContinuation<Void, Never>] = []
    private var isClosed = false
    /// The text recognition the documents read scans with, set on each as it is leased.
    private var textRecognition: TextRecognition?
    /// Where each piece of work's time and failure are counted.
    private let metrics: ServerMetrics

    /// A pool whose documents `open` opens (in this process or in an engine process), which
    /// read scans with `textRecognition`, counting its work in `metrics`.
    init(
        path: String, documentID: String, rendererID: String, capacity: Int, threads: EngineThreads, textRecognition: TextRecognition?,
        metrics: ServerMetrics, open: @escaping @Sendable () throws -> Document
    ) {
        self.metrics = metrics
        self.path = path
        self.documentID = documentID
        self.rendererID = rendererID
        self.open = open
        self.capacity = max(1, capacity)
        self.threads = threads
        self.textRecognition = textRecognition
    }

    /// Makes the documents read scans with `recognition` from their next lease on.
    func useTextRecognition(_ recognition: TextRecognition?) {
        textRecognition = recognition
    }

    /// Runs `body` on an engine thread with a document of the pool, stopped by `timeLimit`
    /// (then throwing a 503 `limit-exceeded`) and by the task's cancellation (a client that
    /// goes away).
    func run<T: Sendable>(timeLimit: Duration?, _ body: @escaping @Sendable (Document, Cancellation) throws -> T) async throws -> T {
        let (metrics, renderer) = (self.metrics, rendererID)
        return try await withLease { document in
            try await self.threads.run { cancellation in
                let limited = Cancellation(timeLimit: timeLimit, within: cancellation)
                let started = ContinuousClock.now
                do {
                    let result = try body(document, limited)
                    metrics.recordEngineWork(renderer: renderer, duration: .now - started, error: nil)
                    return result
                } catch let error as RendererError {
                    metrics.recordEngineWork(renderer: renderer, duration: .now - started, error: error.code.rawValue)
                    // The time limit ran out: the server is too slow for this page now, the
                    // request itself was fine (a page past the pixel limit stays a 400).
                    if error.code == .limitExceeded && limited.isCancelled {
                        throw APIError(.serviceUnavailable, code: error.code.rawValue, error.message)
                    }
                    throw error
                }
            }
        }
    }

    /// Runs `body` with a document of the pool, given back when `body` ends; `body` must use
    /// it on an engine thread. Leases are taken in a fixed order of pools (reference engine
    /// first) by whoever needs two at once, so waiting never forms a cycle.
    func withLease<T: Sendable>(_ body: @Sendable (Document) async throws -> T) async throws -> T {
        try await naming(path, as: documentID) {
            let document = try await lease()
            // A document keeps what it read while its recognition's store stays the same.
            if document.textRecognition?.store !== textRecognition?.store || (document.textRecognition == nil) != (textRecognition == nil) {
                document.textRecognition = textRecognition
            }
            do {
                let result = try await body(document)
                giveBack(document)
                return result
            } catch {
                giveBack(document)
                throw error
            }
        }
    }

    /// Drops the idle documents and every document given back from now on (the file changed,
    /// or the server stops), and returns when the last document leased has been given back
    /// and dropped.
    func close() async {
        isClosed = true
        opened -= idle.count
        idle.removeAll()
        let woken = waiting
        waiting.removeAll()
        woken.forEach { $0.resume() }
        if opened > 0 { await withCheckedContinuation { drained.append($0) } }
    }

    private func lease() async throws -> Document {
        while true {
            guard !isClosed else { throw RendererError(.cancelled, "the document changed while the request waited; retry it") }
            if let document = idle.popLast() { return document }
            if opened < capacity {
                opened += 1
                do {
                    let open = self.open
                    return try await threads.run { _ in try open() }
                } catch {
                    dropOne()
                    throw error
                }
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    private func giveBack(_ document: Document) {
        if isClosed {
            dropOne()
        } else {
            idle.append(document)
            wakeOne()
        }
    }

    /// One document fewer: its place goes to a waiter, or, once the pool is closed and the
    /// last one is gone, to whoever waits for the pool to drain. A waiter resumes after the
    /// current actor job, when the caller has let go of the document.
    private func dropOne() {
        opened -= 1
        wakeOne()
        if isClosed, opened == 0 {
            drained.forEach { $0.resume() }
            drained.removeAll()
        }
    }

    private func wakeOne() {
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }
}
