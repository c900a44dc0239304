import Hummingbird
import NIOCore

/// The context of every HTTP request the server answers: Hummingbird's basic context and
/// the close of the request's connection, so that engine work can stop when its client goes
/// away without reading the connection (which would end it after the answer: no keep-alive).
package struct ServerRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// Completes when the request's connection closes, by either side.
    package let connectionClosed: EventLoopFuture<Void>

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connectionClosed = source.channel.closeFuture
    }
}
