import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 and WebSocket channel with handlers of the project's at both ends of
/// each connection's pipeline: the front ones nearest the socket, ahead of everything
/// Hummingbird and NIO install, see the connection's bytes as they come and go; the back ones,
/// behind the HTTP decoder and the upgrade handler, see what reaches the end before the
/// framework takes the connection.
struct ConnectionHandlersChannel<Base: ServerChildChannel>: ServerChildChannel {
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
