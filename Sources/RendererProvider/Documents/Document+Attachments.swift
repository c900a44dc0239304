#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Document {
    /// The files the document embeds: its own (the `/EmbeddedFiles` name tree, in the order
    /// of their keys), then those of file-attachment annotations, in page order; an index in
    /// this list names an attachment below. Needs `Capability.attachments`.
    public func attachments() throws -> [Attachment] {
        try withEngine(as: AttachmentReading.self, needing: .attachments) { document, _ in try document.attachments() }
    }

    /// The bytes of attachment `index` (of ``attachments()``), decoded; throws
    /// `invalidArgument` for an index past the list.
    public func attachmentContents(at index: Int) throws -> Data {
        try withEngine(as: AttachmentReading.self, needing: .attachments) { document, _ in
            let count = try document.attachments().count
            guard (0..<count).contains(index) else {
                throw RendererError(.invalidArgument, "attachment \(index) does not exist; the document has \(count)")
            }
            return try document.attachmentContents(at: index)
        }
    }

    /// Embeds `contents` as the document's own file `name`, with `description`, modified at
    /// `modificationDate`, and an MD5 checksum, keeping the change until it is saved. Throws
    /// `conflict` when the document already has an attachment of its own by that name,
    /// `invalidArgument` for an empty name, `unsupported` when the renderer cannot embed
    /// files, and `notPermitted` when the document does not permit changes.
    public func addAttachment(name: String, contents: Data, description: String? = nil, modificationDate: Date? = nil) throws {
        try require(.editAttachments)
        try require(.modify, toAllow: "changes")
        guard !name.isEmpty, !name.unicodeScalars.contains("\u{0}") else {
            throw RendererError(.invalidArgument, "an attachment's name must be a non-empty string without NUL")
        }
        try withEngine(as: AttachmentWriting.self, needing: nil) { document, _ in
            guard try !document.attachments().contains(where: { $0.place == .document && $0.name == name }) else {
                throw RendererError(.conflict, "the document already has an attachment named \(name)")
            }
            try document.addAttachment(name: name, contents: contents, description: description, modificationDate: modificationDate)
        }
        markChanged()
    }

    /// Removes attachment `index` (one of the document's own), keeping the change until it is
    /// saved; an annotation's attachment goes with its annotation (`invalidArgument`).
    public func removeAttachment(at index: Int) throws {
        try require(.editAttachments)
        try require(.modify, toAllow: "changes")
        try withEngine(as: AttachmentWriting.self, needing: nil) { document, _ in
            let attachments = try document.attachments()
            guard attachments.indices.contains(index) else {
                throw RendererError(.invalidArgument, "attachment \(index) does not exist; the document has \(attachments.count)")
            }
            guard attachments[index].place == .document else {
                throw RendererError(.invalidArgument, "attachment \(index) belongs to an annotation on page \((attachments[index].pageIndex ?? 0) + 1): remove the annotation")
            }
            try document.removeAttachment(at: index)
        }
        markChanged()
    }
}
