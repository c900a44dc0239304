import Foundation
import RendererProvider

// The collaboration wire protocol, version 1: what a client sends a server about one
// layer's annotations and what the server answers. JSON, with the API's own `Annotation`
// coding. docs/collaboration.md states every rule.

/// The protocol's version, sent by the server in `X-Collaboration-Protocol`.
public let collaborationProtocolVersion = 1

/// The largest WebSocket frame of a layer's events, either way: a server splits longer
/// messages into frames of at most this size, and its clients accept frames of this size
/// (a WebSocket client library's default is often far smaller, 16 KiB, which one large
/// ink annotation's message passes).
package let collaborationFrameSize = 1 << 20

/// The close code of a layer's WebSocket whose server is draining (stopping or restarting,
/// IANA's 1012, Service Restart): the client connects again at once, to this server's
/// address, which a load balancer then sends to another server, and fetches what it missed.
public let collaborationReconnectCloseCode: UInt16 = 1012

/// An annotation as a layer holds it, with the layer revision at which it last changed.
public struct StoredAnnotation: Codable, Hashable, Sendable {
    /// The annotation; its `author` is the user who added it, from their token.
    public var annotation: Annotation
    /// The layer's revision when the annotation last changed (0: the PDF's own).
    public var revision: Int

    /// An annotation stored at `revision`.
    public init(annotation: Annotation, revision: Int) {
        self.annotation = annotation
        self.revision = revision
    }
}

/// One change a client sends: to add, modify or delete one annotation.
public struct LayerChange: Codable, Hashable, Sendable {
    /// What the change does.
    public enum Action: String, Codable, Sendable {
        /// Adds `annotation` (with a new identity when its `id` is empty).
        case add
        /// Replaces the annotation of `annotation.id`, made on `baseRevision`.
        case modify
        /// Deletes the annotation `annotationID`.
        case delete
    }

    /// The client's id for the change: a change sent again with the same id is applied once
    /// and answered as the first time.
    public var operationID: String
    /// What the change does.
    public var action: Action
    /// The annotation to add, or as modified (its `id` names the one to modify). Its
    /// `author` is ignored: the server takes authorship from the token.
    public var annotation: Annotation?
    /// The annotation to delete (for `delete`).
    public var annotationID: String?
    /// For `modify`: the annotation's revision the change was made on; a change made on an
    /// older revision is rejected with the current value.
    public var baseRevision: Int?

    /// A change as given.
    public init(operationID: String, action: Action, annotation: Annotation? = nil, annotationID: String? = nil, baseRevision: Int? = nil) {
        self.operationID = operationID
        self.action = action
        self.annotation = annotation
        self.annotationID = annotationID
        self.baseRevision = baseRevision
    }
}

/// A batch of changes, applied in order, each on its own.
public struct LayerPush: Codable, Sendable {
    /// The changes.
    public var changes: [LayerChange]

    /// A batch of `changes`.
    public init(changes: [LayerChange]) {
        self.changes = changes
    }
}

/// What became of one change.
public struct ChangeResult: Codable, Hashable, Sendable {
    /// Whether the change was applied.
    public enum Status: String, Codable, Sendable {
        /// The change is in the layer.
        case applied
        /// The change was not made; `reason` says why.
        case rejected
    }

    /// Why a change was rejected.
    public enum Reason: String, Codable, Sendable {
        /// Made on an older revision of the annotation: `current` holds the value to rebase on.
        case conflict
        /// The annotation was deleted (a delete wins over a concurrent modify).
        case deleted
        /// There is no annotation with that identity in the layer.
        case notFound = "not-found"
        /// An annotation with that identity is already in the layer.
        case exists
        /// The user's token does not grant it (another user's annotation, or read-only).
        case notPermitted = "not-permitted"
        /// The change is malformed: missing fields, absurd geometry, contents too large.
        case invalid
    }

    /// The change's operation id.
    public var operationID: String
    /// Applied or rejected.
    public var status: Status
    /// Applied: the layer's revision after the change.
    public var revision: Int?
    /// Applied: the annotation as stored (for a delete, as it was).
    public var annotation: StoredAnnotation?
    /// Rejected: why.
    public var reason: Reason?
    /// Rejected: what was wrong, for a person.
    public var message: String?
    /// Rejected as a conflict (or for an annotation not the user's): the current value.
    public var current: StoredAnnotation?

    /// An applied change.
    public static func applied(_ operationID: String, revision: Int, annotation: StoredAnnotation) -> ChangeResult {
        ChangeResult(operationID: operationID, status: .applied, revision: revision, annotation: annotation)
    }

    /// A rejected change.
    public static func rejected(_ operationID: String, _ reason: Reason, _ message: String, current: StoredAnnotation? = nil) -> ChangeResult {
        ChangeResult(operationID: operationID, status: .rejected, reason: reason, message: message, current: current)
    }
}

/// The answer to a push: each change's result, in order, and the layer's revision after them.
public struct PushResult: Codable, Sendable {
    /// The layer's revision after the batch.
    public var revision: Int
    /// One result per change, in order.
    public var results: [ChangeResult]

    /// A push's answer.
    public init(revision: Int, results: [ChangeResult]) {
        self.revision = revision
        self.results = results
    }
}

/// What changed in a layer after a revision: what a sync cycle fetches.
public struct LayerChanges: Codable, Sendable {
    /// The layer's revision now; the next cycle asks for changes since it.
    public var revision: Int
    /// Annotations added after the revision asked about (and still there).
    public var added: [StoredAnnotation]
    /// Annotations that existed then and changed since.
    public var updated: [StoredAnnotation]
    /// Identities of annotations deleted since.
    public var deleted: [String]

    /// Changes as given.
    public init(revision: Int, added: [StoredAnnotation], updated: [StoredAnnotation], deleted: [String]) {
        self.revision = revision
        self.added = added
        self.updated = updated
        self.deleted = deleted
    }
}

/// A layer whole: its revision and every annotation it holds, oldest change first.
public struct LayerSnapshot: Codable, Sendable {
    /// The layer's revision.
    public var revision: Int
    /// The annotations.
    public var annotations: [StoredAnnotation]

    /// A snapshot as given.
    public init(revision: Int, annotations: [StoredAnnotation]) {
        self.revision = revision
        self.annotations = annotations
    }
}

extension JSONEncoder {
    /// How the server and the sync client write the protocol's JSON (and their stores
    /// theirs): keys sorted, dates in ISO 8601.
    package static var collaboration: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONDecoder {
    /// How the server and the sync client read the protocol's JSON: dates in RFC 3339.
    package static var collaboration: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .rfc3339
        return decoder
    }
}
