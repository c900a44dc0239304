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

extension FileVersion {
    /// Whether the file at version `version` was modified after the one at `other`; false
    /// when either is not a version ``of(_:)`` reads.
    package static func isNewer(_ version: String, than other: String) -> Bool {
        guard let modified = modification(version), let otherModified = modification(other) else { return false }
        return modified.seconds != otherModified.seconds ? modified.seconds > otherModified.seconds : modified.nanoseconds > otherModified.nanoseconds
    }

    /// The modification time a version holds.
    private static func modification(_ version: String) -> (seconds: Int, nanoseconds: Int)? {
        let parts = version.split(separator: "-")
        guard parts.count == 3 else { return nil }
        let time = parts[1].split(separator: ".")
        guard time.count == 2, let seconds = Int(time[0]), let nanoseconds = Int(time[1]) else { return nil }
        return (seconds, nanoseconds)
    }
}
