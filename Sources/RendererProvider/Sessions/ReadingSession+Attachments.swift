#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The files the document embeds, through the session: read freely, embedded and removed
/// under the ``SessionFeature/editing`` setting and the PDF's modify permission, each change
/// told as ``SessionEvent/attachmentsChanged(_:)``.
extension ReadingSession {
    /// The document's attachments, as ``Document/attachments()`` lists them.
    public func attachments() throws -> [Attachment] {
        try withDocument { document, _ in try document.attachments() }
    }

    /// The bytes of attachment `index`, as ``Document/attachmentContents(at:)`` reads them.
    public func attachmentContents(at index: Int) throws -> Data {
        try withDocument { document, _ in try document.attachmentContents(at: index) }
    }

    /// Embeds a file as ``Document/addAttachment(name:contents:description:modificationDate:)`` does.
    public func addAttachment(name: String, contents: Data, description: String? = nil, modificationDate: Date? = nil) throws {
        try withPermitted([.editing]) { document, state in
            try document.addAttachment(name: name, contents: contents, description: description, modificationDate: modificationDate)
            emit(.attachmentsChanged(try document.attachments()), in: state)
        }
    }

    /// Removes an attachment as ``Document/removeAttachment(at:)`` does.
    public func removeAttachment(at index: Int) throws {
        try withPermitted([.editing]) { document, state in
            try document.removeAttachment(at: index)
            emit(.attachmentsChanged(try document.attachments()), in: state)
        }
    }
}
