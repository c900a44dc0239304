import RendererCollaboration
import RendererProvider

/// What a sync client tells its host, in order, on ``SyncClient/events``. Each event also
/// encodes as one JSON object with a `type` field (`remote`, `accepted`, `conflict`,
/// `online`, `offline`, `listening`, `token-renewed`, `failed`): what `hostapp sync watch` prints.
public enum SyncEvent: Sendable, Encodable {
    /// Other readers' changes came from the server and are in the local store (and in the
    /// open session, whose delegate heard them too); `revision` is the layer's now.
    case remote(revision: Int, changes: AnnotationChanges)
    /// The server applied one of this reader's changes.
    case accepted(ChangeResult)
    /// The server rejected one of this reader's changes: never dropped in silence.
    case conflict(SyncConflict)
    /// The server answers again; queued changes are being sent.
    case online
    /// The server cannot be reached; changes are queued until it can.
    case offline(String)
    /// The layer's WebSocket is connected (again): from now on other readers' changes come as
    /// they are made, not only at the next cycle.
    case listening
    /// The host gave a new token after the server refused the old one.
    case tokenRenewed
    /// A cycle failed for another reason (the server's answer, or the local store).
    case failed(String)

    private enum Keys: String, CodingKey {
        case type, revision, added, modified, removed, result, change, dropped, message
    }

    /// Encodes the event as one JSON object whose `type` says which event it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .remote(let revision, let changes):
            try container.encode("remote", forKey: .type)
            try container.encode(revision, forKey: .revision)
            try container.encode(changes.added, forKey: .added)
            try container.encode(changes.modified, forKey: .modified)
            try container.encode(changes.removed.map(\.id), forKey: .removed)
        case .accepted(let result):
            try container.encode("accepted", forKey: .type)
            try container.encode(result, forKey: .result)
        case .conflict(let conflict):
            try container.encode("conflict", forKey: .type)
            try container.encode(conflict.change, forKey: .change)
            try container.encode(conflict.result, forKey: .result)
            try container.encode(conflict.dropped, forKey: .dropped)
        case .online:
            try container.encode("online", forKey: .type)
        case .offline(let message):
            try container.encode("offline", forKey: .type)
            try container.encode(message, forKey: .message)
        case .listening:
            try container.encode("listening", forKey: .type)
        case .tokenRenewed:
            try container.encode("token-renewed", forKey: .type)
        case .failed(let message):
            try container.encode("failed", forKey: .type)
            try container.encode(message, forKey: .message)
        }
    }
}

/// A change of this reader's that the server rejected, and what the client did about it:
/// the local store (and the open session) now hold the server's value (`result.current`,
/// or nothing when the annotation is gone), and the reader's later changes of the same
/// annotation that were still queued are dropped and listed in `dropped`.
public struct SyncConflict: Sendable, Hashable, Codable {
    /// The change as sent.
    public var change: LayerChange
    /// The server's answer: the reason, its message and the current value.
    public var result: ChangeResult
    /// Later queued changes of the same annotation, not sent.
    public var dropped: [LayerChange]
}
