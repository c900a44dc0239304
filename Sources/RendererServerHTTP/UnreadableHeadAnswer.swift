import NIOCore
import NIOHTTP1

/// Answers a connection whose first request head cannot be parsed (a NUL or another control
/// character in a header, a malformed request line) with a 400 JSON error, and closes it.
///
/// Installed last in the pipeline, behind the HTTP decoder and the WebSocket upgrade handler.
/// Hummingbird answers a parse error itself once a request has reached it, but the upgrade
/// handler, which waits for the first whole head, lets the decoder's error pass to the end of
/// the pipeline and waits on: without this handler, the client got no answer and the
/// connection (and its file descriptor) stayed open until the client left. Once any request
/// part has come through, the framework has the connection and this handler removes itself.
package final class UnreadableHeadAnswer: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = Any

    package init() {}

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        try? context.pipeline.syncOperations.addHandler(Answer(), position: .first)
    }

    /// Writes the 400 as the connection's last answer once it is added, nearest the socket,
    /// and reads nothing more.
    private final class Answer: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        func handlerAdded(context: ChannelHandlerContext) {
            APIError.badRequest("the request head cannot be read").lastAnswer(from: context)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
    }
}
