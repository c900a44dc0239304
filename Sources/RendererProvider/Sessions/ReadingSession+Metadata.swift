#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReadingSession {
    /// Replaces the document's metadata with `metadata` and its XMP packet with what
    /// `packet` makes of the current one, as ``Document``'s `replaceMetadata` does, and tells
    /// `metadataChanged` with the metadata the document then holds. Needs the
    /// ``SessionFeature/editing`` setting and the PDF's modify permission. The public form is
    /// `setMetadata` in RendererProviderMetadata.
    package func replaceMetadata(_ metadata: DocumentMetadata, xmpPacket packet: (Data?) throws -> Data) throws {
        try withPermitted([.editing]) { document, state in
            try document.replaceMetadata(metadata, xmpPacket: packet(document.xmpPacket()))
            emit(.metadataChanged(try document.info().metadata), in: state)
        }
    }
}
