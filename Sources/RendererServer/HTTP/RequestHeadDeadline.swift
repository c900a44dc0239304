import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 and WebSocket channel with handlers of the project's at both ends of
/// each connection's pipeline: the front ones nearest the socket, ahead of everything
/// Hummingbird and NIO install, see the connection's bytes as they come and go; the back ones,
/// behind the HTTP decoder and the upgrade handler, see what reaches the end before the
/// framework takes the connection.
struct FrontHandlersChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base
    /// The handlers at the front of one connection, made anew for each, first first.
    let handlers: @Sendable () -> [any ChannelHandler]
    /// The handlers at the back of one connection, made anew for each, last last.
    let backHandlers: @Sendable () -> [any ChannelHandler]

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        do {
            try channel.pipeline.syncOperations.addHandlers(handlers(), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandlers(backHandlers())
            return value
        }
    }

    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// A connection's first request head must arrive whole within a deadline: a client that
/// connects and sends part of a request (or nothing) is disconnected then, rather than hold
/// a connection, and a file descriptor, for ever. Hummingbird's idle timeout governs the
/// requests after the first, but it is installed only once the WebSocket upgrade handler
/// has seen a whole first head, so the first one is bounded here, ahead of everything.
///
/// Closes the connection unless the bytes of a whole request head (up to its blank line)
/// have come within `deadline` of the connection's start; removes itself once they have.
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    /// The last bytes seen, to find a blank line split across reads.
    private var tail: [UInt8] = []
    private var done = false

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if !done {
            let bytes = tail + Array(buffer.readableBytesView)
            if bytes.firstRange(of: [13, 10, 13, 10]) != nil {
                done = true
                timer?.cancel()
                timer = nil
            } else {
                tail = Array(bytes.suffix(3))
            }
        }
        context.fireChannelRead(data)
        if done { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil, !done else { return }
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
    }
}
