#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// The temporary folders hostapp's commands make for a run.
package enum TemporaryFolder {
    /// A new folder `prefix-XXXXXX` in the system's temporary directory that only this user
    /// can read (`mkdtemp`); the caller removes it.
    package static func make(named prefix: String) throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/\(prefix)-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RendererError(.ioFailure, "cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}
