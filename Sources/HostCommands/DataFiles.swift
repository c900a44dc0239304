import Foundation
import RendererProvider

/// The data files commands read and write besides documents (exported annotations and form
/// values), with `ioFailure` errors that name the file.
package enum DataFiles {
    /// The bytes of `path`.
    package static func read(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RendererError(.ioFailure, "cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// Writes `data` to `path` atomically, or to standard output when `path` is nil.
    package static func write(_ data: Data, to path: String?) throws {
        guard let path else { return FileHandle.standardOutput.write(data) }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw RendererError(.ioFailure, "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
