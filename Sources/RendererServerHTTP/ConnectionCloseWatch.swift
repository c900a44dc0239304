import NIOCore

/// Tells when a client is gone: its ``closed`` future completes when the client closes its
/// side of the connection (the server's child channels allow half-closure, so that arrives
/// as `ChannelEvent.inputClosed`, not as the channel's close) or the connection closes.
/// It reads nothing itself and consumes no event, so a connection it watches stays usable
/// for the next request. ``ServerRequestContext`` finds it in the pipeline.
package final class ConnectionCloseWatch: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = NIOAny

    private var promise: EventLoopPromise<Void>?

    package init() {}

    /// Completes once the client has gone. Read on the channel's event loop.
    package private(set) var closed: EventLoopFuture<Void>!

    package func handlerAdded(context: ChannelHandlerContext) {
        let promise = context.eventLoop.makePromise(of: Void.self)
        self.promise = promise
        closed = promise.futureResult
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent { finish() }
        context.fireUserInboundEventTriggered(event)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    private func finish() {
        promise?.succeed()
        promise = nil
    }
}
