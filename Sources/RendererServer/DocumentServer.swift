import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import RendererCollaboration
import RendererCollaborationServer
import RendererProvider
import RendererServerHTTP
import ServiceLifecycle

/// A document server: the JSON HTTP API over the served files and the browser viewer
/// (`hostapp serve`). docs/server.md lists the endpoints.
///
/// ```swift
/// let server = try DocumentServer(configuration: ServerConfiguration(roots: ["docs"], token: token), registry: registry)
/// try await server.run { port in print("listening on \(port)") }   // until SIGINT or SIGTERM
/// ```
///
/// It binds the configured host (loopback by default), answers only requests carrying the
/// token, opens only the files it was given, and runs engine work on engine threads, never
/// on its event loops. On SIGINT or SIGTERM it drains: `/api/ready` and new requests on open
/// connections are answered 503, the layer WebSockets are told to connect again (close code
/// 1012); it stops accepting, finishes the requests in flight and returns.
public struct DocumentServer: Sendable {
    private let context: ServerContext
    private let library: DocumentLibrary

    /// A server for `configuration` over `registry`'s engines; throws `fileNotFound` for a
    /// root that does not exist, `ioFailure` for a collaboration database it cannot open.
    public init(configuration: ServerConfiguration, registry: RendererRegistry, threads: EngineThreads = .shared, logger: Logger = Logger(label: "renderer-server")) throws {
        context = try ServerContext(configuration: configuration, registry: registry, threads: threads, logger: logger)
        library = DocumentLibrary(catalog: try DocumentCatalog(paths: configuration.roots, uploads: context.uploads?.folder), context: context, capacity: configuration.openFileLimit)
    }

    /// The server as a Hummingbird application (with its shutdown gate as a service), for
    /// running in a service group of the host's or testing. Prefer ``services(onListening:)``,
    /// which places the gate where it hears a graceful shutdown before the application does.
    public func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        application(onListening: onListening, withGate: true)
    }

    /// The services that make the server, in the order a service group is to run them: the
    /// application, then its shutdown gate. A group shuts its services down in reverse order,
    /// so the gate hears a graceful shutdown first: the server drains (`/api/ready` answers
    /// 503, new requests on open connections too, the layer WebSockets are closed with
    /// `collaborationReconnectCloseCode`) and then finishes what is in flight.
    public func services(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> [any Service] {
        [application(onListening: onListening, withGate: false), context.gate]
    }

    private func application(onListening: @escaping @Sendable (Int) async -> Void, withGate: Bool) -> some ApplicationProtocol {
        // HEAD is answered wherever GET is, without the body.
        let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        let routes = Routes(library: library, context: context)
        let configuration = context.configuration
        routes.register(on: router)
        router.add(middleware: UnroutedRequestMiddleware<ServerRequestContext>(routes: router.routes, token: configuration.token))
        // Layers' WebSockets upgrade through a router of their own; everything else is HTTP.
        // Connections past the limits are refused. Every connection must send its first
        // request head in time, each request's body in time, and may then stay idle only so
        // long; an error answered before a body has all come closes the connection; a refused
        // upgrade, and a first head that cannot be read, are answered with the JSON error of
        // HTTP routes.
        let webSocketResponder = (routes.collaboration.map { LayerSocket(routes: $0).router() } ?? LayerSocket.absentRouter())
            .buildResponder()
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: TimeAmount(configuration.idleTimeout)),
            ws: .init(maxFrameSize: min(configuration.bodyLimit, collaborationFrameSize)))
        let headDeadline = TimeAmount(configuration.requestHeadTimeout)
        let bodyDeadline = TimeAmount(configuration.requestBodyTimeout)
        let connections = Self.connectionLimit(configuration)
        let server = HTTPServerBuilder { responder in
            ConnectionHandlersChannel(
                base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: channelConfiguration),
                handlers: { [connections.handler(), RequestHeadDeadline(deadline: headDeadline), RefusedUpgradeAnswer(), ConnectionCloseWatch()] },
                backHandlers: { [UnreadableHeadAnswer(), RequestBodyGuard(deadline: bodyDeadline)] })
        }
        var application = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "hostapp"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: context.logger)
        if withGate { application.addServices(context.gate) }
        // The layers' database runs before the server and stops after it.
        application.addServices(context.collaboration?.services(logger: context.logger) ?? [])
        return application
    }

    /// Every route the server answers, as `METHOD /path/{parameter}`, the WebSocket's among
    /// them: what the tests hold the OpenAPI document to.
    package func routeDescriptions() -> [String] {
        let router = Router(context: ServerRequestContext.self)
        let routes = Routes(library: library, context: context)
        routes.register(on: router)
        let all = router.routes.map { ($0.method.rawValue, $0.path.description) }
            + (routes.collaboration.map { LayerSocket(routes: $0).router().routes } ?? []).map { ($0.method.rawValue, $0.path.description) }
        return all.map { method, path in
            let parts = path.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            return "\(method) /" + parts.joined(separator: "/")
        }
    }

    /// Serves until SIGINT or SIGTERM, calling `onListening` with the port once listening;
    /// what is still running after the configuration's `shutdownGracePeriod` is cancelled.
    /// `alongside` run beside it, started before it and stopped after it (a tracer's exporter,
    /// which then sends the last spans).
    public func run(alongside: [any Service] = [], onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var services = (alongside + self.services(onListening: onListening)).map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
        // A server that ends with its viewer stops, gracefully, when the presence watch returns.
        if let presence = context.viewerPresence {
            services.append(.init(service: presence, successTerminationBehavior: .gracefullyShutdownGroup))
        }
        var configuration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: context.logger)
        configuration.maximumGracefulShutdownDuration = context.configuration.shutdownGracePeriod
        try await ServiceGroup(configuration: configuration).run()
        // Nothing of an engine may run once the process exits and the engines' static data goes.
        await library.closeAll()
        await context.threads.idle()
    }

    /// The connection limits of `configuration`, derived where it gives none: what the
    /// process's descriptors allow once each open file's engine documents (with a session,
    /// per engine) and 64 more for the database, logs and uploads are set aside.
    private static func connectionLimit(_ configuration: ServerConfiguration) -> ConnectionLimit {
        let reserved = 64 + configuration.openFileLimit * (configuration.documentsPerFile + 1) * 2
        let total = configuration.connectionLimit ?? ConnectionLimit.descriptorBudget(reserving: reserved)
        return ConnectionLimit(total: total, perAddress: configuration.connectionLimitPerAddress ?? max(1, total / 2))
    }
}
