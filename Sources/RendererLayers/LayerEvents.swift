import Foundation
import RendererCollaboration

/// Who listens to which layer, and what they are told: each accepted change goes at once to
/// every WebSocket of the same document and layer (and of no other).
///
/// Each listener has a queue of its own, at most `backlog` messages: a client that does not
/// read its WebSocket fills only its own queue and is then dropped (told through its
/// `onDrop`, which closes its connection), and no other client waits for it.
package actor LayerEvents {
    private struct Listener {
        var messages: AsyncStream<String>.Continuation
        var onDrop: @Sendable () -> Void
    }

    private let backlog: Int
    private var listeners: [DocumentDescriptor: [UUID: Listener]] = [:]

    package init(backlog: Int = 256) {
        self.backlog = max(1, backlog)
    }

    /// A new listener of `descriptor`: its id and the stream of its messages, which ends when
    /// it is dropped or removed; `onDrop` is called when its queue overflows.
    package func listen(to descriptor: DocumentDescriptor, onDrop: @escaping @Sendable () -> Void) -> (UUID, AsyncStream<String>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(backlog))
        listeners[descriptor, default: [:]][id] = Listener(messages: continuation, onDrop: onDrop)
        return (id, stream)
    }

    /// Removes a listener.
    package func remove(_ id: UUID, from descriptor: DocumentDescriptor) {
        listeners[descriptor]?.removeValue(forKey: id)?.messages.finish()
        if listeners[descriptor]?.isEmpty == true { listeners.removeValue(forKey: descriptor) }
    }

    /// Sends `message` to every listener of `descriptor` but `sender`; a listener whose
    /// queue is full is dropped.
    package func publish(_ message: String, to descriptor: DocumentDescriptor, except sender: UUID? = nil) {
        for (id, listener) in listeners[descriptor] ?? [:] where id != sender {
            if case .dropped = listener.messages.yield(message) {
                remove(id, from: descriptor)
                listener.onDrop()
            }
        }
    }

    /// The layers someone listens to.
    package func descriptors() -> [DocumentDescriptor] { Array(listeners.keys) }
}

/// A message on a layer's WebSocket (JSON): `hello` with the layer's revision on connecting
/// (and again when changes may have been missed, for the client to fetch), `change` for each
/// accepted change (from anyone), `results` answering the client's own XFDF command, and
/// `error` for a message that could not be read.
package struct LayerEvent: Codable {
    package var type: String
    package var revision: Int?
    package var action: LayerChange.Action?
    package var annotation: StoredAnnotation?
    package var user: String?
    package var results: [ChangeResult]?
    package var message: String?

    package init(
        type: String, revision: Int? = nil, action: LayerChange.Action? = nil, annotation: StoredAnnotation? = nil, user: String? = nil,
        results: [ChangeResult]? = nil, message: String? = nil
    ) {
        (self.type, self.revision, self.action, self.annotation) = (type, revision, action, annotation)
        (self.user, self.results, self.message) = (user, results, message)
    }

    /// The message as the WebSocket sends it.
    package var json: String {
        let encoder = JSONEncoder.collaboration
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
