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
        // Written by a handler nearest the socket: the bytes pass no HTTP encoder on the way.
        try? context.pipeline.syncOperations.addHandler(RawAnswer(APIError.badRequest("the request head cannot be read").rawResponse()), position: .first)
    }

    /// Writes its bytes to the socket when added, then closes the connection. The handlers
    /// behind it hear first that the input has ended, so that the upgrade handler gives up
    /// as it does when a client leaves (rather than log an error when the connection closes).
    private final class RawAnswer: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let answer: ByteBuffer

        init(_ answer: ByteBuffer) {
            self.answer = answer
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let channel = context.channel
            context.writeAndFlush(NIOAny(answer)).whenComplete { _ in channel.close(promise: nil) }
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }

        /// Whatever else the client sends is not read.
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
    }
}
