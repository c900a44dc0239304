import Foundation
import RendererEngine

/// Saving (Poppler's writer keeps the encryption a file has; it cannot add or remove one,
/// so the document is not ``ProtectedSaving``): whether an incremental update is possible, writing the document with its changes
/// to a new file, and the file identifier that fingerprints it.
extension PopplerDocument {
    /// True unless Poppler had to rebuild the file's cross-reference table to open it.
    var canSaveIncrementally: Bool { !wasReconstructed }

    /// Saved by the core twin, which holds the changes. Poppler truncates the file it has
    /// open when asked to save over it; `path` is always a new file here.
    func write(to path: String, incremental: Bool) throws {
        try core.save(to: path, rewrite: !incremental)
    }

    func write(into output: any FileWriteHandle, incremental: Bool) throws {
        try core.write(into: output, rewrite: !incremental)
    }

    /// The first part of the trailer's `/ID` in hexadecimal, as glib reads it.
    func fileIdentifier() -> String? {
        glib.fileIdentifier()
    }
}
