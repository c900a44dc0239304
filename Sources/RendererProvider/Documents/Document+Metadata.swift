#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Document {
    /// What the document does of itself (its open action, additional actions and
    /// JavaScript), with this document's changes; `unsupported` where the engine cannot read
    /// the catalog (Ghostscript). The viewer and the server never run these; signature
    /// verification holds later revisions to them.
    public func documentActions() throws -> DocumentActions {
        try withEngine(as: MetadataReading.self, needing: nil) { document, _ in try document.documentActions() }
    }

    /// The document's XMP packet (the catalog's `/Metadata` stream), decoded, with this
    /// document's changes; nil when it has none. Needs `Capability.editMetadata`, which
    /// the engines that read the packet declare.
    public func xmpPacket() throws -> Data? {
        try withEngine(as: MetadataReading.self, needing: .editMetadata) { document, _ in try document.xmpPacket() }
    }

    /// Writes `metadata` into the Info dictionary (nil and empty fields removed) and, when given,
    /// `xmpPacket` as the document's XMP packet, keeping the change until it is saved. The
    /// public form, which keeps the two consistent, is `setMetadata` in
    /// RendererProviderMetadata. Throws `unsupported` when the renderer cannot write
    /// metadata, `notPermitted` when the document does not permit changes.
    package func replaceMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws {
        try require(.editMetadata)
        try require(.modify, toAllow: "changes")
        var present = metadata
        for field in [\DocumentMetadata.title, \.author, \.subject, \.keywords, \.creator, \.producer] where present[keyPath: field]?.isEmpty == true {
            present[keyPath: field] = nil
        }
        try withEngine(as: MetadataWriting.self, needing: nil) { [present] document, _ in try document.setMetadata(present, xmpPacket: xmpPacket) }
        markChanged()
    }
}
