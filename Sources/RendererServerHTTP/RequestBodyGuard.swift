import NIOCore
import NIOHTTP1

/// Keeps a client from holding a connection by the way it sends a request's body.
///
/// - A request's body must have come whole within a deadline of its head, whatever its pace:
///   each byte that arrives keeps a connection from being idle, so a body sent a byte at a
///   time would otherwise hold the connection (and a file descriptor) for as long as the
///   client likes. Past the deadline the connection is closed.
/// - An error answered before the body has all come (a 401 to a request without a token, a
///   413) says `Connection: close` and the connection is closed once it is written: the
///   framework would otherwise read the rest of the body, at the client's pace, to reuse the
///   connection.
///
/// Installed behind the HTTP decoder and the WebSocket upgrade handler, where requests are
/// NIO's HTTP parts; on a connection upgraded to a WebSocket it removes itself at the first
/// frame.
package final class RequestBodyGuard: ChannelDuplexHandler, RemovableChannelHandler {
    /// `HTTPServerRequestPart`, or a WebSocket's frames after an upgrade.
    package typealias InboundIn = Any
    /// `HTTPServerResponsePart`, or a WebSocket's frames after an upgrade.
    package typealias OutboundIn = Any

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    /// A request's head has come and its end not yet.
    private var reading = false
    /// The request being read was answered with an error before its body had all come.
    private var closesAfterAnswer = false

    package init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let part = unwrapInboundIn(data) as? HTTPServerRequestPart else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        switch part {
        case .head:
            reading = true
            let channel = context.channel
            timer?.cancel()
            timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
        case .body:
            break
        case .end:
            reading = false
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) as? HTTPServerResponsePart {
        case .head(var head) where reading && head.status.code >= 400:
            closesAfterAnswer = true
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: promise)
        case .end where closesAfterAnswer:
            let channel = context.channel
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { result in
                channel.close(promise: nil)
                promise?.completeWith(result)
            }
            context.writeAndFlush(data, promise: written)
        default:
            context.write(data, promise: promise)
        }
    }
}
