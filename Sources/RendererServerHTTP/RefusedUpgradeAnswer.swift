import Hummingbird
import NIOCore

/// Answers a refused WebSocket upgrade as the HTTP routes answer a refusal: 401 or 403 with
/// the JSON error body. hummingbird-websocket answers any upgrade its router refuses itself,
/// 400 with no body (`writeFailedUpgrade`), and offers no hook; so the layer socket's route
/// records here, before it refuses, the answer it means, and this handler, at the front of
/// the connection's pipeline, sends that answer in place of the framework's bytes. It steps
/// aside (removes itself) at the connection's first answer when none was recorded.
package final class RefusedUpgradeAnswer: ChannelOutboundHandler, RemovableChannelHandler {
    package typealias OutboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    /// The whole answer to send instead of the framework's; set on the channel's event loop.
    private var answer: ByteBuffer?
    private var answered = false

    package init() {}

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let answer else {
            context.write(data, promise: promise)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        // The framework's refusal (its head, then its end) is replaced by the one answer.
        if answered {
            promise?.succeed(())
        } else {
            answered = true
            context.write(wrapOutboundOut(answer), promise: promise)
        }
    }

    /// Records `error` as the answer to the upgrade request being refused on `channel`; call
    /// it before the refusal is returned to the framework.
    package static func record(_ error: APIError, on channel: any Channel) async {
        let answer = error.rawResponse()
        try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: RefusedUpgradeAnswer.self).answer = answer
        }.get()
    }
}
