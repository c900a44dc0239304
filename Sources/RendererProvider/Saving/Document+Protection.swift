#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Document {
    /// Writes the document with its changes to `path` as a whole new file protected by
    /// `protection`'s passwords and permissions, or, when `protection` is nil, unencrypted;
    /// the document goes on as it was. Written atomically, as ``saveCopy(to:mode:)-(String,_)``
    /// writes: `path` is its old self or the complete new file, never part of one.
    ///
    /// Changing a document's protection needs every permission: an encrypted document must
    /// have been opened with its owner password (`unsupported` otherwise, saying so).
    /// Throws `invalidArgument` for a `protection` that `PasswordProtection.validate()`
    /// refuses or for `path` being the file the document was read from, and `unsupported`
    /// on a renderer without an encrypting writer (`Capability.protect`: MuPDF has one).
    public func saveCopy(to path: String, protection: PasswordProtection?) throws {
        try protection?.validate()
        try require(.protect)
        try require(.all, toAllow: "changing its password protection")
        try writeCopy(to: path, as: ProtectedSaving.self) { document, _, temporaryPath in try document.write(to: temporaryPath, protection: protection) }
    }
}
