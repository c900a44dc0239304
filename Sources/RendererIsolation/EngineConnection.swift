#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// The engine process serving one document: it sends each call and waits for the answer
/// within the time limit, and starts a new process, which opens the document again, for the
/// call after one that found the process dead or stopped it. Confined like the engine
/// document that owns it (one call at a time).
///
/// A change (an annotation added, a page moved) lives only in the engine process until the
/// document is saved: when the process ends while holding one, the change is lost, and this
/// call and every later one fail with `engineCrashed` rather than answer from the file as it
/// was. A layout asked for is applied again in each new process.
final class EngineConnection {
    /// What the engine process opens; nil for a connection that only asks what it serves.
    private let opening: IsolationRequest.Opening?
    private let options: IsolationOptions
    private let displayName: String
    private var process: EngineProcess?
    private var holdsChanges = false
    /// Whether the last engine process ended before its work was done: the next one started
    /// is a restart.
    private var lostProcess = false
    /// Set once changes were lost: what every later call throws.
    private var lost: RendererError?
    private var layout: EngineCall?

    /// A connection that opens `opening` in engine processes started as `options` say; none
    /// runs until ``start()``.
    init(opening: IsolationRequest.Opening?, options: IsolationOptions, displayName: String) {
        self.opening = opening
        self.options = options
        self.displayName = displayName
    }

    /// Starts an engine process and opens the document in it.
    func start() throws -> IsolationReply.Opened {
        guard let opening else { throw RendererError(.invalidArgument, "no document to open in an engine process") }
        return try first(.open(opening), action: "open the document") { reply in
            guard case .opened(let opened) = reply else { throw unexpectedReply() }
            return opened
        }
    }

    /// Starts an engine process and has it write a PDF of pictures; the process then ends.
    /// Returns the number of pages.
    func writePictures(_ request: IsolationRequest.Pictures) throws -> Int {
        defer { process = nil }
        return try first(.writePictures(request), action: "write a PDF of pictures") { reply in
            guard case .wrotePictures(let pages) = reply else { throw unexpectedReply() }
            return pages
        }
    }

    /// Starts an engine process and asks what renderers it serves; the process then ends.
    func describe() throws -> [EngineDescription] {
        defer { process = nil }
        return try first(.describe, action: "describe its renderers") { reply in
            guard case .described(let renderers) = reply else { throw unexpectedReply() }
            return renderers
        }
    }

    /// Starts an engine process and sends it its first request once the process says it is
    /// ready: the time limit counts from then, whatever time the machine took to start it.
    private func first<T>(_ request: IsolationRequest, action: @autoclosure () -> String, _ handle: (IsolationReply) throws -> T) throws -> T {
        let started = try EngineProcess(executable: options.executable, arguments: options.arguments)
        EngineProcessTally.countStart(restarting: lostProcess)
        lostProcess = false
        process = started
        do {
            do {
                try awaitReady(started)
            } catch {
                lostProcess = true
                throw error
            }
            return try exchange(request, action: action(), cancellation: nil) { reply, _, _ in try handle(reply) }
        } catch {
            process = nil
            throw error
        }
    }

    /// Sends `call` and decodes its result (a call's `Done` is often not looked at).
    @discardableResult
    func call<R: Decodable>(_ call: EngineCall, returning type: R.Type = R.self, cancellation: Cancellation? = nil) throws -> R {
        try self.call(call, cancellation: cancellation) { channel, deadline in try channel.receive(R.self, before: deadline) }
    }

    /// Sends `call` and hands the channel to `read` for its result, within the time limit.
    func call<T>(_ call: EngineCall, cancellation: Cancellation?, read: (MessageChannel, ContinuousClock.Instant?) throws -> T) throws -> T {
        if let lost { throw lost }
        if process == nil {
            _ = try start()
            if let layout { try self.call(layout, returning: Done.self) }
        }
        do {
            let result = try exchange(.call(call), action: call.action, cancellation: cancellation) { reply, channel, deadline in
                guard case .value = reply else { throw unexpectedReply() }
                return try read(channel, deadline)
            }
            if call.changesDocument { holdsChanges = true }
            if case .layout = call { layout = call }
            return result
        } catch let error as RendererError where process == nil && holdsChanges {
            let lost = RendererError(
                .engineCrashed,
                "\(error.message); the changes made to \(displayName) since it was opened or saved were held by that process and are lost: open the document again",
                rendererID: opening?.rendererID)
            self.lost = lost
            throw lost
        }
    }

    /// Sends `request` and hands the reply to `handle`, within the time limit. An error reply
    /// is thrown; a dead or late engine process is killed and reported as `engineCrashed` or
    /// `limitExceeded`, and the next call starts another.
    private func exchange<T>(
        _ request: IsolationRequest, action: @autoclosure () -> String, cancellation: Cancellation?,
        handle: (IsolationReply, MessageChannel, ContinuousClock.Instant?) throws -> T
    ) throws -> T {
        try cancellation?.check()
        guard let process else { throw RendererError(.engineFailure, "no engine process serves \(displayName)", rendererID: opening?.rendererID) }
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
            lostProcess = true
            switch interruption {
            case .timedOut:
                process.kill()
                let limit = options.timeLimit.map { "\(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) s" } ?? ""
                throw RendererError(
                    .limitExceeded, "\(displayName): the engine took longer than the time limit of \(limit) to \(action()), and was stopped",
                    rendererID: opening?.rendererID)
            case .closed:
                let ending = process.waitForExit()
                throw RendererError(
                    .engineCrashed, "\(displayName): the engine process \(ending) while it tried to \(action())", rendererID: opening?.rendererID)
            }
        } catch let error as DecodingError {
            self.process = nil
            lostProcess = true
            throw RendererError(
                .engineFailure, "\(displayName): the engine process gave an answer that cannot be read: \(error)", rendererID: opening?.rendererID)
        }
    }

    /// How long a new engine process may take to say it is ready: a program that has not
    /// started in a minute is not coming.
    static let startLimit = Duration.seconds(60)

    /// Waits for the first message of `process`, which says it serves.
    private func awaitReady(_ process: EngineProcess) throws {
        do {
            guard case .ready = try process.channel.receive(IsolationReply.self, before: ContinuousClock.now + Self.startLimit) else { throw unexpectedReply() }
        } catch MessageChannel.Interruption.timedOut {
            process.kill()
            throw RendererError(.engineFailure, "\(displayName): the engine process did not start within \(Self.startLimit)", rendererID: opening?.rendererID)
        } catch is MessageChannel.Interruption {
            throw RendererError(
                .engineCrashed, "\(displayName): the engine process \(process.waitForExit()) before it was ready", rendererID: opening?.rendererID)
        } catch is DecodingError {
            throw RendererError(.engineFailure, "\(displayName): the program started is not an engine process", rendererID: opening?.rendererID)
        }
    }

    private func unexpectedReply() -> RendererError {
        RendererError(.engineFailure, "the engine process for \(displayName) gave an answer that does not fit the request", rendererID: opening?.rendererID)
    }
}
