import CMuPDF
import EngineSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// Saving: whether an incremental update is possible, writing the document with its changes
/// to a new file, and the file identifier that fingerprints it.
extension MuPDFDocument {
    var canSaveIncrementally: Bool { cmupdf_can_save_incrementally(handle) != 0 }

    func write(to path: String, incremental: Bool) throws {
        var error = cmupdf_error()
        guard cmupdf_save(handle, path, incremental ? 1 : 0, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "save to \(path)", code: error.code == Int32(CMUPDF_ERROR_IO) ? .ioFailure : .engineFailure)
        }
    }

    func write(to path: String, protection: PasswordProtection?) throws {
        let method: Int32 = switch protection?.method {
        case nil: 0
        case .aes128: 1
        case .aes256: 2
        }
        let permissions = protection?.permissions.pdfPermissionBits ?? 0
        var error = cmupdf_error()
        guard cmupdf_save_protected(handle, path, method, permissions, protection?.userPassword ?? "", protection?.ownerPassword ?? "", &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "save to \(path)", code: error.code == Int32(CMUPDF_ERROR_IO) ? .ioFailure : .engineFailure)
        }
    }

    func write(into output: any FileWriteHandle, incremental: Bool) throws {
        var error = cmupdf_error()
        let ok = try StreamBridge.withSink(writingTo: output) { cmupdf_write(handle, $0, incremental ? 1 : 0, &error) }
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "save the document", code: .engineFailure) }
    }

    /// The first part of the trailer's `/ID` in hexadecimal, nil when there is none.
    func fileIdentifier() -> String? {
        var bytes = [UInt8](repeating: 0, count: 64)
        let length = Int(cmupdf_file_identifier(handle, &bytes, Int32(bytes.count)))
        guard length > 0 else { return nil }
        return String(hexadecimal: bytes.prefix(min(length, bytes.count)))
    }
}
