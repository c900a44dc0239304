import Foundation
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// A document whose engine runs in a child process, so that an engine that crashes, hangs
/// or exhausts memory on a hostile file costs an error, never the caller.
///
/// Every step (opening, and each request below) is sent to the engine process and waited
/// for within the time limit. When the engine process dies or is killed, the step throws
/// `engineCrashed` (or `limitExceeded` for the time limit) and the next request starts a
/// new engine process, which opens the document again: a batch goes on with its next page.
/// Requests from several threads are served one at a time.
public final class IsolatedDocument: DocumentReading {
    /// The id of the renderer that opened the document.
    public let rendererID: String
    /// The engine's name and version, as its renderer reports them.
    public let engineName: String
    /// The engine's version.
    public let engineVersion: String
    public let pageCount: Int

    private let opening: IsolationRequest
    private let displayName: String
    private let isolation: IsolationOptions
    private let engine: Locked<EngineSlot>

    /// Opens the file at `path` in a new engine process with the renderer `backend` selects
    /// there, as `RendererRegistry/open(_:password:backend:needing:limits:)` does with the
    /// engine process's registry. Throws what opening throws there, and `engineCrashed` or
    /// `limitExceeded` when the engine process dies or runs past the time limit. The
    /// password reaches the engine process through its socket, never its arguments.
    public init(
        path: String, password: String? = nil, backend: BackendSelection = .auto, needing capabilities: Set<Capability> = [],
        limits: DocumentLimits = DocumentLimits(), isolation: IsolationOptions
    ) throws {
        opening = .open(
            path: path, password: password, backend: backend.description, needing: capabilities, cacheBytes: limits.cacheBytes,
            memoryBytes: isolation.memoryBytes)
        displayName = path
        self.isolation = isolation
        var slot = EngineSlot()
        let opened = try slot.start(opening, options: isolation, displayName: path)
        (rendererID, engineName, engineVersion, pageCount) = (opened.backend, opened.engineName, opened.engineVersion, opened.pageCount)
        engine = Locked(slot)
    }

    /// The document's version, metadata, encryption and permissions, as `Document` gives them.
    public func info() throws -> DocumentInfo {
        guard case .info(let info) = try ask(.info) else { throw unexpectedReply() }
        return info
    }

    /// Size, rotation and label of every page, in order.
    public func pageInfos() throws -> [PageInfo] {
        guard case .pageInfos(let pages) = try ask(.pageInfos) else { throw unexpectedReply() }
        return pages
    }

    /// Draws a page as `Document/render(pageAt:options:cancellation:)` does. Cancelling
    /// `cancellation` while the engine draws stops the engine process; the next request
    /// starts another.
    public func render(pageAt index: Int, options: RenderOptions = RenderOptions(), cancellation: Cancellation? = nil) throws -> Bitmap {
        try engine.withLock { slot in
            try slot.exchange(
                .render(page: index, options: options, file: nil), restarting: opening, options: isolation, displayName: displayName,
                cancellation: cancellation
            ) { reply, channel, deadline in
                guard case .rendered(let width, let height, let stride, let format) = reply,
                    stride >= width * format.bytesPerPixel, stride * height <= options.maximumPixelCount * 4
                else { throw unexpectedReply() }
                var bytes = [UInt8](repeating: 0, count: stride * height)
                try bytes.withUnsafeMutableBytes { try channel.read(into: $0, before: deadline) }
                return Bitmap(width: width, height: height, stride: stride, format: format, bytes: bytes)
            }
        }
    }

    /// Draws a page and writes it as an image file, as
    /// `Document/render(pageAt:options:as:to:cancellation:)` does; the engine process
    /// writes the file. Returns the image's size in pixels.
    @discardableResult
    public func render(
        pageAt index: Int, options: RenderOptions = RenderOptions(), as format: ImageFileFormat, to path: String,
        cancellation: Cancellation? = nil
    ) throws -> (width: Int, height: Int) {
        let file = IsolationRequest.ImageFile(format: format, path: path)
        guard case .rendered(let width, let height, _, _) = try ask(.render(page: index, options: options, file: file), cancellation: cancellation) else {
            throw unexpectedReply()
        }
        return (width, height)
    }

    /// The page's text in reading order, as the engine's own text tool writes it.
    public func text(pageAt index: Int) throws -> String {
        guard case .text(let text) = try ask(.text(page: index)) else { throw unexpectedReply() }
        return text
    }

    /// The page's characters with their boxes, in lines and blocks.
    public func textPage(pageAt index: Int) throws -> TextPage {
        guard case .textPage(let page) = try ask(.textPage(page: index)) else { throw unexpectedReply() }
        return page
    }

    /// The page's size, rotation and label.
    public func pageInfo(at index: Int) throws -> PageInfo {
        guard case .pageInfo(let info) = try ask(.pageInfo(page: index)) else { throw unexpectedReply() }
        return info
    }

    /// The page's links.
    public func links(pageAt index: Int) throws -> [Link] {
        guard case .links(let links) = try ask(.links(page: index)) else { throw unexpectedReply() }
        return links
    }

    /// The document's outline.
    public func outline() throws -> [OutlineItem] {
        guard case .outline(let items) = try ask(.outline) else { throw unexpectedReply() }
        return items
    }

    /// The page's annotations.
    public func annotations(onPageAt index: Int) throws -> [Annotation] {
        guard case .annotations(let annotations) = try ask(.annotations(page: index)) else { throw unexpectedReply() }
        return annotations
    }

    private func ask(_ request: IsolationRequest, cancellation: Cancellation? = nil) throws -> IsolationReply {
        try engine.withLock { slot in
            try slot.exchange(request, restarting: opening, options: isolation, displayName: displayName, cancellation: cancellation) { reply, _, _ in reply }
        }
    }

    private func unexpectedReply() -> RendererError {
        RendererError(.engineFailure, "the engine process for \(displayName) gave an answer that does not fit the request", backend: rendererID)
    }
}

/// The engine process serving a document, if one runs.
private struct EngineSlot: ~Copyable {
    private var process: EngineProcess?

    /// Starts an engine process and opens the document in it.
    mutating func start(_ opening: IsolationRequest, options: IsolationOptions, displayName: String) throws -> IsolationReply.Opened {
        process = try EngineProcess(executable: options.executable, arguments: options.arguments)
        do {
            guard case .opened(let opened) = try exchange(opening, restarting: nil, options: options, displayName: displayName, handle: { reply, _, _ in reply }) else {
                throw RendererError(.engineFailure, "\(displayName): the engine process answered something else than the opened document")
            }
            return opened
        } catch {
            process = nil
            throw error
        }
    }

    /// Sends `request` (after starting an engine process with `opening`, if none runs) and
    /// hands the reply to `handle`, within the time limit. An error reply is thrown; a dead
    /// or late engine process is killed and reported as `engineCrashed` or `limitExceeded`.
    mutating func exchange<T>(
        _ request: IsolationRequest, restarting opening: IsolationRequest?, options: IsolationOptions, displayName: String,
        cancellation: Cancellation? = nil, handle: (IsolationReply, MessageChannel, ContinuousClock.Instant?) throws -> T
    ) throws -> T {
        try cancellation?.check()
        if process == nil, let opening { _ = try start(opening, options: options, displayName: displayName) }
        guard let process else { throw RendererError(.engineFailure, "no engine process serves \(displayName)") }
        let deadline = options.timeLimit.map { ContinuousClock.now + $0 }
        do {
            let pid = process.pid
            return try (cancellation ?? Cancellation()).whileRunning {
                try process.channel.send(request)
                let reply = try process.channel.receive(IsolationReply.self, before: deadline)
                if case .failed(let error) = reply { throw error.error }
                return try handle(reply, process.channel, deadline)
            } onCancel: {
                _ = kill(pid, SIGKILL)
            }
        } catch let interruption as MessageChannel.Interruption {
            self.process = nil
            if let cancellation, cancellation.isCancelled {
                process.kill()
                throw cancellation.error
            }
            switch interruption {
            case .timedOut:
                process.kill()
                let limit = options.timeLimit.map { "\(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) s" } ?? ""
                throw RendererError(.limitExceeded, "\(displayName): the engine took longer than the time limit of \(limit) to \(request.action), and was stopped")
            case .closed:
                let ending = process.waitForExit()
                throw RendererError(.engineCrashed, "\(displayName): the engine process \(ending) while it tried to \(request.action)")
            }
        } catch let error as DecodingError {
            self.process = nil
            throw RendererError(.engineFailure, "\(displayName): the engine process gave an answer that cannot be read: \(error)")
        }
    }
}
