import CPopplerBridge
import EngineSupport
import Foundation
import RendererProvider

extension PopplerDocument {
    func xmpPacket() throws -> Data? {
        try core().xmpPacket()
    }

    func setMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws {
        let core = try core()
        defer { coreChanged() }
        for (key, value) in metadata.infoEntries {
            let status = core.setInfo(key, value.map(Self.pdfTextString))
            guard status == CPOPPLER_OK else { throw PopplerErrors.editFailure(status, doing: "write /\(key) into the Info dictionary") }
        }
        if let xmpPacket {
            let status = core.setXMPPacket(xmpPacket)
            guard status == CPOPPLER_OK else { throw PopplerErrors.editFailure(status, doing: "write the XMP packet") }
        }
    }

    /// `text` as a PDF text string: its bytes when it is printable ASCII (the same in
    /// PDFDocEncoding), else UTF-16BE after a byte order mark.
    private static func pdfTextString(_ text: String) -> Data {
        if text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }) { return Data(text.utf8) }
        return Data([0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }
}
