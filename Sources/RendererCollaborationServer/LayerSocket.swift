import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import RendererCollaboration
import RendererLayers
import RendererProvider
import RendererProviderXFDF
import RendererServerHTTP
import RendererServerHTTP

/// The WebSocket of a layer, `/api/collab/documents/{id}/layers/{layer}/events`: each
/// accepted change of the layer, from anyone, comes at once as a `change` message; the
/// client may send XFDF command messages (`<add>`, `<modify>`, `<delete>`), applied under the
/// same rules as a push (authorship and rights from the token) and answered with a `results`
/// message, while the other clients get the `change` messages. The token comes in the
/// `Authorization` header or, for browsers, the `access_token` query parameter.
package struct LayerSocket: Sendable {
    let routes: CollaborationRoutes

    /// The socket of `routes`' layers.
    package init(routes: CollaborationRoutes) {
        self.routes = routes
    }

    /// The router of WebSocket upgrades: only this path upgrades, and only with a token
    /// that verifies for it (otherwise the upgrade is answered 401 or 403 with the JSON error,
    /// through ``RefusedUpgradeAnswer``).
    package func router() -> Router<LayerSocketContext> {
        let router = Router(context: LayerSocketContext.self)
        router.ws(Self.path) { request, context in
            do {
                _ = try await authorize(request, parameters: context.parameters)
            } catch let error as APIError {
                await RefusedUpgradeAnswer.record(error, on: context.channel)
                throw error
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            // The upgrade's request, checked again for the socket (the value does not cross
            // the upgrade) but counted once against the user's requests per second. What
            // failed since the check closes the socket with the reason, never silently.
            let collaborator: CollaborationRoutes.Collaborator
            do {
                collaborator = try await authorize(context.request, parameters: context.requestContext.parameters, counting: false)
            } catch {
                let reason = (error as? APIError)?.message ?? "the layer cannot be opened"
                context.logger.warning("a layer WebSocket was closed at its start: \(reason)")
                try await outbound.close(.policyViolation, reason: Self.closeReason(reason))
                return
            }
            // A draining server tells the client to connect again, there or elsewhere.
            let socket = UUID()
            guard routes.backend.sockets.add(socket, outbound) else {
                try await outbound.close(.unknown(collaborationReconnectCloseCode), reason: OpenSockets.drainReason)
                return
            }
            defer { routes.backend.sockets.remove(socket) }
            let (events, collaboration) = (routes.backend.events, routes.backend.configuration)
            // A client that reads too slowly is disconnected: closing the channel also ends a
            // write waiting for the client to read.
            let channel = context.requestContext.channel
            let logger = context.logger
            let policy = collaboration.policy
            let (listener, messages) = await events.listen(to: collaborator.descriptor) {
                logger.warning("a layer WebSocket client fell \(collaboration.eventBacklog) messages behind; disconnected")
                channel.close(mode: .all, promise: nil)
            }
            let revision = (try? await collaborator.store.revision(collaborator.descriptor)) ?? 0
            try await outbound.write(.text(LayerEvent(type: "hello", revision: revision).json))
            try await withThrowingTaskGroup(of: Void.self) { group in
                // The listener's own queue, written out as the client reads it.
                group.addTask {
                    for await message in messages { try await outbound.write(.text(message)) }
                }
                group.addTask {
                    var sequence = 0
                    for try await message in inbound.messages(maxSize: routes.bodyLimit) {
                        guard case .text(let text) = message else { continue }
                        // A message that comes once the token has ended or was revoked is never applied.
                        guard collaborator.tokenIsCurrent(policy) else { break }
                        sequence += 1
                        let answer = await apply(text, from: collaborator, listener: listener, sequence: sequence)
                        try await outbound.write(.text(answer.json))
                    }
                    try await Self.closeIfEnded(outbound, collaborator, policy)
                }
                // The socket lives no longer than its token: at the token's end the server
                // closes it (policy violation), and the client must connect with a new one. A
                // revoked token's socket is closed at its next message.
                group.addTask {
                    try await collaboration.tokenEnd(collaborator.claims)
                    try await outbound.close(.policyViolation, reason: Self.endedReason)
                }
                try await group.next()
                group.cancelAll()
            }
            await events.remove(listener, from: collaborator.descriptor)
        }
        return router
    }

    /// The router of WebSocket upgrades of a server that does not collaborate: the layer
    /// socket's path is refused as the HTTP routes refuse it, 404 with the JSON error.
    package static func absentRouter() -> Router<LayerSocketContext> {
        let router = Router(context: LayerSocketContext.self)
        router.ws(path) { _, context in
            let error = APIError.notFound("this server does not collaborate")
            await RefusedUpgradeAnswer.record(error, on: context.channel)
            throw error
        } onUpgrade: { _, _, _ in }
        return router
    }

    /// The request context of the WebSocket router: the basic one, and the connection's
    /// channel, which a listener that falls behind has closed.
    package struct LayerSocketContext: RequestContext, WebSocketRequestContext {
        package var coreContext: CoreRequestContextStorage
        package let webSocket: WebSocketHandlerReference<Self>
        let channel: any Channel

        package init(source: ApplicationRequestContextSource) {
            coreContext = .init(source: source)
            webSocket = .init()
            channel = source.channel
        }
    }

    /// The path of the route, as the router matches it.
    static let path: RouterPath = "api/collab/documents/:id/layers/:layer/events"

    private func authorize(_ request: Request, parameters: Parameters, counting: Bool = true) async throws -> CollaborationRoutes.Collaborator {
        let token = CollaborationRoutes.bearerToken(request) ?? request.uri.queryParameters["access_token"].map(String.init)
        return try await routes.authorizedCollaborator(request, token: token, id: parameters.get("id"), layer: parameters.get("layer"), counting: counting)
    }

    /// Closes the socket with a policy violation when `collaborator`'s token has expired or
    /// was revoked.
    private static func closeIfEnded(_ outbound: WebSocketOutboundWriter, _ collaborator: CollaborationRoutes.Collaborator, _ policy: TokenPolicy) async throws {
        guard !collaborator.tokenIsCurrent(policy) else { return }
        try await outbound.close(.policyViolation, reason: endedReason)
    }

    /// The reason a socket whose token ended is closed with.
    private static let endedReason = "the token has expired or was revoked"

    /// The most bytes of UTF-8 a close frame's reason may hold: a control frame carries at
    /// most 125 bytes, two of them the close code (RFC 6455, 5.5).
    package static let closeReasonLimit = 123

    /// `message` as a close frame's reason: whole, or cut after the last character that ends
    /// within ``closeReasonLimit`` bytes, so that a long message (a long layer name in it,
    /// say) never makes a frame the client must reject.
    package static func closeReason(_ message: String) -> String {
        var reason = ""
        var bytes = 0
        for character in message {
            bytes += character.utf8.count
            guard bytes <= closeReasonLimit else { break }
            reason.append(character)
        }
        return reason
    }

    /// Applies one XFDF command message and publishes what it changed, under the rules of a
    /// REST push: the sender's rights are checked before the message is parsed, each message
    /// counts against the user's requests per second, and it holds at most as many changes
    /// as a push may.
    private func apply(_ text: String, from collaborator: CollaborationRoutes.Collaborator, listener: UUID, sequence: Int) async -> LayerEvent {
        do {
            guard collaborator.claims.collaborationPermissions.canAnnotate else {
                return LayerEvent(type: "error", message: "user \(collaborator.claims.userID) may not change annotations in this layer")
            }
            try await routes.backend.limiter.admit(collaborator.claims.userID)
            let command = try await collaborator.document.xfdfCommand(Data(text.utf8))
            guard !command.isEmpty else {
                return LayerEvent(type: "error", message: "the XFDF command holds no add, modify or delete" + Self.skipped(command))
            }
            let limit = routes.backend.configuration.changesPerRequest
            let count = command.added.count + command.modified.count + command.deleted.count
            guard count <= limit else {
                return LayerEvent(type: "error", message: "a message holds at most \(limit) changes; this one holds \(count)")
            }
            // XFDF carries no revision: a modify applies over the current value.
            let revision = try await collaborator.store.revision(collaborator.descriptor)
            var changes: [LayerChange] = []
            let prefix = "ws-\(listener.uuidString.lowercased())-\(sequence)"
            for (index, annotation) in command.added.enumerated() {
                changes.append(LayerChange(operationID: "\(prefix)-a\(index)", action: .add, annotation: annotation))
            }
            for (index, annotation) in command.modified.enumerated() {
                changes.append(LayerChange(operationID: "\(prefix)-m\(index)", action: .modify, annotation: annotation, baseRevision: revision))
            }
            for (index, id) in command.deleted.enumerated() {
                changes.append(LayerChange(operationID: "\(prefix)-d\(index)", action: .delete, annotationID: id))
            }
            let result = try await routes.apply(changes, for: collaborator, except: listener)
            return LayerEvent(type: "results", revision: result.revision, results: result.results, message: Self.skipped(command).isEmpty ? nil : Self.skipped(command))
        } catch let error as RendererError {
            return LayerEvent(type: "error", message: error.message)
        } catch let error as APIError {
            return LayerEvent(type: "error", message: error.message)
        } catch let error as LayerNotFound {
            return LayerEvent(type: "error", message: error.message)
        } catch {
            return LayerEvent(type: "error", message: "the command could not be applied")
        }
    }

    private static func skipped(_ command: XFDFCommand) -> String {
        command.skipped.isEmpty ? "" : "; left out: " + command.skipped.joined(separator: "; ")
    }
}
