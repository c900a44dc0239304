/// The other side of a reading session in collaboration mode: the service that carries the
/// reader's annotation changes to a server and the other readers' changes back.
///
/// The session calls it, synchronously and while holding its own lock (as it calls its
/// delegate), with:
/// - ``documentLoaded(_:annotations:)`` once the document is open: everything the document
///   holds, for the service's first sync;
/// - ``session(_:didChangeLocally:)`` after each change the reader made (added, modified,
///   removed), to send to the server.
///
/// Changes from the server reach the document through
/// ``ReadingSession/applyRemoteChanges(_:)``, which tells the delegate as for local changes
/// (with ``AnnotationChanges/isRemote`` set) and never hands them back to the service: no
/// change is echoed to the server it came from.
///
/// The service says who the reader is (``currentUserID``) and what they may do
/// (``permissions``); both come from the reader's signed token, never from the client. The
/// session stamps the reader's id as the author of every annotation they add, and refuses
/// (`notPermitted`) to modify or remove an annotation of another author unless the
/// permissions grant it.
public protocol CollaborationService: AnyObject, Sendable {
    /// The reader's user id, from their token.
    var currentUserID: String { get }
    /// What the reader may do, from their token.
    var permissions: CollaborationPermissions { get }
    /// The document is open with these annotations (every page's).
    func documentLoaded(_ session: ReadingSession, annotations: [Annotation])
    /// The reader changed annotations: send them to the server.
    func session(_ session: ReadingSession, didChangeLocally changes: AnnotationChanges)
}

/// What a reader may do in a collaboration, as their token grants it. The names are the
/// token's permission strings.
public struct CollaborationPermissions: Hashable, Sendable {
    /// The permission strings granted, such as `read-document`, `write`, `download`,
    /// `annotations:edit:self`, `annotations:edit:all`, `annotations:delete:all`.
    public var granted: Set<String>

    /// Permissions granting `granted`.
    public init(_ granted: Set<String>) {
        self.granted = granted
    }

    /// Whether the reader may add annotations and change their own: `write`, or
    /// `annotations:edit:self`.
    public var canAnnotate: Bool { granted.contains("write") || granted.contains("annotations:edit:self") || canEditAll }

    /// Whether the reader may change other readers' annotations: `annotations:edit:all`.
    public var canEditAll: Bool { granted.contains("annotations:edit:all") }

    /// Whether the reader may remove other readers' annotations: `annotations:delete:all`
    /// (or `annotations:edit:all`).
    public var canDeleteAll: Bool { granted.contains("annotations:delete:all") || canEditAll }

    /// Whether the reader, who is `user`, may change `annotation`: they may annotate, and it
    /// is theirs or they may edit everyone's.
    public func mayModify(_ annotation: Annotation, as user: String) -> Bool {
        canAnnotate && (annotation.author == user || canEditAll)
    }

    /// Whether the reader, who is `user`, may remove `annotation`: they may annotate, and it
    /// is theirs or they may delete everyone's.
    public func mayRemove(_ annotation: Annotation, as user: String) -> Bool {
        canAnnotate && (annotation.author == user || canDeleteAll)
    }
}
