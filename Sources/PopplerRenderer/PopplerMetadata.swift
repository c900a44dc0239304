import CPopplerBridge
import EngineSupport
import Foundation
import RendererEngine

extension PopplerDocument {
    func xmpPacket() throws -> Data? {
        try core.xmpPacket()
    }

    func setMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws {
        defer { coreChanged() }
        for (key, value) in metadata.infoEntries {
            let status = core.setInfo(key, value)
            guard status == CPOPPLER_OK else { throw PopplerErrors.editFailure(status, doing: "write /\(key) into the Info dictionary") }
        }
        if let xmpPacket { try setXMPPacket(xmpPacket) }
    }

    /// The fonts of the document as it is now, edits included.
    func fonts() throws -> [FontInfo] {
        try logging { try currentGlib().fonts() }
    }
}
