import Crypto
import Foundation
import RendererProvider

extension DocumentFingerprint {
    /// The document's fingerprint: its file identifier, else the SHA-256 of the file's bytes
    /// (read through `fileSystem`, where the file is).
    static func of(_ info: DocumentInfo, path: String, in fileSystem: any FileSystem) throws -> DocumentFingerprint {
        if let identifier = info.fileIdentifier { return .fileIdentifier(identifier) }
        let reader = try fileSystem.openForReading(path)
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < reader.length {
            let n = try buffer.withUnsafeMutableBytes { try reader.read(at: offset, into: $0) }
            guard n > 0 else { break }
            hash.update(data: buffer[..<n])
            offset += n
        }
        let hex = hash.finalize().map { String(format: "%02x", $0) }.joined()
        return .contentHash(hex, algorithm: "sha256")
    }
}
