import Hummingbird
import NIOCore

/// The context of every HTTP request the server answers: Hummingbird's basic context and
/// when the request's client goes, so that engine work can stop then without reading the
/// connection (which would end it after the answer: no keep-alive).
package struct ServerRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// Completes when the client closes its side of the connection, or the connection
    /// closes (``ConnectionCloseWatch``; the channel's close where no watch is installed).
    package let clientGone: EventLoopFuture<Void>

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        let channel = source.channel
        clientGone = channel.pipeline.handler(type: ConnectionCloseWatch.self)
            .flatMap { $0.closed }
            .flatMapError { _ in channel.closeFuture }
    }
}
