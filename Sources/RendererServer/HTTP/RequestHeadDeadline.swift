import NIOCore

/// A connection's first request head must arrive whole within a deadline: a client that
/// connects and sends part of a request (or nothing) is disconnected then, rather than hold
/// a connection, and a file descriptor, for ever. Hummingbird's idle timeout governs the
/// requests after the first, but it is installed only once the WebSocket upgrade handler
/// has seen a whole first head, so the first one is bounded here, ahead of everything.
///
/// Closes the connection unless the bytes of a whole request head (up to its blank line)
/// have come within `deadline` of the connection's start; removes itself once they have.
/// For the same reason it closes such a connection when the server shuts down (NIO's
/// quiescing event): nothing is in flight on it, and Hummingbird's own handler, which
/// closes idle connections then, is not there yet; a browser's preconnected socket would
/// otherwise hold the shutdown for the whole deadline.
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

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, !done {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil, !done else { return }
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
    }
}
