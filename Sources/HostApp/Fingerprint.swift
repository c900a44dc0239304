import Crypto
import Foundation
import RendererProvider

extension DocumentFingerprint {
    /// The document's fingerprint: its file identifier, else the SHA-256 of the file's bytes.
    static func of(_ document: Document, path: String) throws -> DocumentFingerprint {
        if let identifier = try document.info().fileIdentifier { return .fileIdentifier(identifier) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw RendererError(.ioFailure, "cannot read \(path) to fingerprint it: \(error.localizedDescription)")
        }
        let hex = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        return .contentHash(hex, algorithm: "sha256")
    }
}
