import Hummingbird
import NIOCore

/// The context of every HTTP request the server answers: Hummingbird's basic context and
/// the request's connection, so that engine work can learn when its client goes without
/// reading the connection (which would end it after the answer: no keep-alive).
package struct ServerRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    private let channel: any Channel

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Completes when the client closes its side of the connection, or the connection
    /// closes (``ConnectionCloseWatch``; the channel's close where no watch is installed).
    /// Looked up when asked, so that requests that never ask pay nothing.
    package var clientGone: EventLoopFuture<Void> {
        let channel = channel
        return channel.pipeline.handler(type: ConnectionCloseWatch.self)
            .flatMap { $0.closed }
            .flatMapError { _ in channel.closeFuture }
    }
}
