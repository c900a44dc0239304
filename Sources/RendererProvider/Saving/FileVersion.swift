#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// Which file a path names now, for a writer that must not save over someone else's save:
/// its size, modification time (to the nanosecond) and inode, which a save by rename changes.
package enum FileVersion {
    /// The version of the file at `path`; nil when there is none.
    package static func of(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_size)-\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)-\(status.st_ino)"
    }
}
