import Foundation
import RendererProvider

/// Metadata written through a document, kept the same in the Info dictionary and XMP.
extension Document {
    /// Sets the document's metadata: the Info dictionary's eight entries and, kept the same,
    /// the XMP packet's properties (made when the document has no packet; its other
    /// properties kept). A nil or empty field is removed from both. The change is kept until
    /// the document is saved, as annotation changes are.
    ///
    /// Throws `unsupported` when the renderer cannot write metadata
    /// (`Capability.editMetadata`), `notPermitted` when the document does not permit changes
    /// (open an encrypted file with its owner password), and `damaged` when the document's packet is
    /// not well-formed XMP; nothing is changed then.
    public func setMetadata(_ metadata: DocumentMetadata) throws {
        let packet = try XMP.packet(updating: xmpPacket(), to: metadata)
        try replaceMetadata(metadata, xmpPacket: packet)
    }

    /// The facts the document's XMP packet holds, with this document's changes; nil when it
    /// has no packet. `Document/info()` reads the Info dictionary.
    public func xmpMetadata() throws -> DocumentMetadata? {
        try xmpPacket().map(XMP.metadata(in:))
    }
}

/// Metadata written through a reading session.
extension ReadingSession {
    /// Sets the document's metadata as `Document/setMetadata(_:)` does, through the session:
    /// it needs the `editing` setting and the PDF's modify permission (`notPermitted`
    /// otherwise), and the change is saved with the session's document.
    public func setMetadata(_ metadata: DocumentMetadata) throws {
        try replaceMetadata(metadata) { try XMP.packet(updating: $0, to: metadata) }
    }
}
