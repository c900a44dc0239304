import Foundation
import HummingbirdWebSocket
import RendererCollaboration

/// The layer WebSockets a server has open, so that a draining server can tell each client
/// to connect again (``collaborationReconnectCloseCode``) before it stops.
package final class OpenSockets: @unchecked Sendable {
    // @unchecked: `writers` and `draining` are only read and written under `lock`.
    private let lock = NSLock()
    private var writers: [UUID: WebSocketOutboundWriter] = [:]
    private var draining = false

    /// The reason the sockets are closed with.
    static let drainReason = "the server is restarting: connect again"

    package init() {}

    /// Registers an open socket's writer; false once the server drains (the socket is to be
    /// closed at once).
    func add(_ id: UUID, _ writer: WebSocketOutboundWriter) -> Bool {
        lock.withLock {
            guard !draining else { return false }
            writers[id] = writer
            return true
        }
    }

    /// How many sockets are open now.
    package var count: Int { lock.withLock { writers.count } }

    /// Forgets a socket that has ended.
    func remove(_ id: UUID) {
        _ = lock.withLock { writers.removeValue(forKey: id) }
    }

    /// Closes every open socket with ``collaborationReconnectCloseCode``; sockets opened
    /// after it are closed the same way as they open.
    package func drain() async {
        let open = lock.withLock {
            draining = true
            return Array(writers.values)
        }
        await withTaskGroup(of: Void.self) { group in
            for writer in open {
                group.addTask { try? await writer.close(.unknown(collaborationReconnectCloseCode), reason: Self.drainReason) }
            }
        }
    }
}
