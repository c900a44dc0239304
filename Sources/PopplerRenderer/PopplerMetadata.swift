import EngineSupport
import Foundation
import RendererEngine

extension PopplerDocument {
    func xmpPacket() throws -> Data? {
        try core.catalogXMPPacket()
    }

    func documentActions() throws -> DocumentActions {
        try core.catalogActions()
    }

    func setMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws {
        try writeMetadata(metadata, xmpPacket: xmpPacket)
    }

    /// The fonts of the document as it is now, edits included.
    func fonts() throws -> [FontInfo] {
        try logging { try currentGlib().fonts() }
    }
}
