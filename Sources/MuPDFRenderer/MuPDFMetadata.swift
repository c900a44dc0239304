import CMuPDF
import EngineSupport
import Foundation
import RendererProvider

extension MuPDFDocument {
    func xmpPacket() throws -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = cmupdf_error()
        guard cmupdf_xmp(handle, &bytes, &length, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "read the XMP packet", code: .damaged)
        }
        guard let bytes else { return nil }
        defer { free(bytes) }
        return Data(bytes: bytes, count: length)
    }

    func setMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws {
        var error = cmupdf_error()
        for (key, value) in metadata.infoEntries where cmupdf_set_info(handle, key, value, &error) == 0 {
            throw MuPDFErrors.translate(error, doing: "write /\(key) into the Info dictionary")
        }
        if let xmpPacket {
            let written = xmpPacket.withUnsafeBytes { cmupdf_set_xmp(handle, $0.bindMemory(to: UInt8.self).baseAddress, $0.count, &error) }
            guard written != 0 else { throw MuPDFErrors.translate(error, doing: "write the XMP packet") }
        }
    }
}
