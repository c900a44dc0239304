import Foundation
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// Where a conversion writes its PDF: a hidden file beside the one asked for, put in its
/// place once whole, so that a failed conversion leaves the place as it was.
struct ConvertedOutput {
    /// The file asked for.
    let target: URL
    /// The file written first.
    let partial: URL

    /// The places for a PDF asked for at `output`.
    init(_ output: String) {
        target = URL(fileURLWithPath: output)
        partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).converting-\(UUID().uuidString).pdf")
    }

    /// Puts the partial file in the target's place; `ioFailure` (the partial file removed)
    /// when it cannot, naming the document `name` only.
    func putInPlace(name: String) throws {
        guard rename(partial.path, target.path) == 0 else {
            discard()
            throw RendererError(.ioFailure, "the PDF of \(name) cannot be written where it was asked")
        }
    }

    /// Removes the partial file, if there is one.
    func discard() {
        try? FileManager.default.removeItem(at: partial)
    }
}
