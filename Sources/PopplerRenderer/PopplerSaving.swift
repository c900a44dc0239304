import CPoppler
import Foundation
import RendererProvider

/// Saving: whether an incremental update is possible, writing the document with its changes
/// to a new file, and the file identifier that fingerprints it.
extension PopplerDocument {
    /// True unless Poppler had to rebuild the file's cross-reference table to open it.
    var canSaveIncrementally: Bool { (try? core().wasReconstructed) == false }

    /// Saved by the core twin, which holds the changes. Poppler truncates the file it has
    /// open when asked to save over it; `path` is always a new file here.
    func write(to path: String, incremental: Bool) throws {
        try core().save(to: path, rewrite: !incremental)
    }

    /// The first part of the trailer's `/ID` in hexadecimal; Poppler reads only 16-byte IDs.
    func fileIdentifier() -> String? {
        var permanent: UnsafeMutablePointer<gchar>?
        guard poppler_document_get_id(handle, &permanent, nil) != 0, let permanent else { return nil }
        defer { g_free(permanent) }
        let hex = String(decoding: UnsafeRawBufferPointer(start: permanent, count: 32), as: UTF8.self)
        return hex.lowercased()
    }
}
