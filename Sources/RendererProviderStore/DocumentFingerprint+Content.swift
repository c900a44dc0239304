import Crypto
import Foundation
import RendererProvider

/// Fingerprints made from a document's facts and bytes.
extension DocumentFingerprint {
    /// The fingerprint of the document at `path` in `fileSystem`, whose facts are `info`: its
    /// file identifier (the PDF `/ID`, which renaming, copying and incremental saves keep),
    /// else `sha256:` and the SHA-256 of its bytes, read a megabyte at a time.
    public static func of(_ info: DocumentInfo, path: String, in fileSystem: any FileSystem = LocalFileSystem()) throws -> DocumentFingerprint {
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

/// Fingerprinting an open document.
extension Document {
    /// The document's fingerprint, read from the file at `path` in `fileSystem` when it has
    /// no file identifier; see `DocumentFingerprint/of(_:path:in:)`.
    public func fingerprint(path: String, in fileSystem: any FileSystem = LocalFileSystem()) throws -> DocumentFingerprint {
        try DocumentFingerprint.of(info(), path: path, in: fileSystem)
    }
}
