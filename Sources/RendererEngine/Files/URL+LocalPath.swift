#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension URL {
    /// The path of the local file this URL names; `invalidArgument` for a URL of another
    /// scheme (`https:`, `data:`), which no call that takes a file reads or writes.
    package func localFilePath() throws -> String {
        guard isFileURL else {
            throw RendererError(.invalidArgument, "a file URL is needed, not a URL of scheme \(scheme.map { "\($0):" } ?? "none")")
        }
        return path
    }
}
