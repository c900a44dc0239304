#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// Replaces a file so that it is at every moment either its old or its complete new self.
package enum AtomicFile {
    /// Calls `write` with the path of a new temporary file in `path`'s directory, flushes
    /// what it wrote to disk when `durable` (so a crash of the system cannot lose it either)
    /// and renames it over `path`. On any failure the temporary file is removed and `path`
    /// is untouched. A replaced file keeps its permissions. Temporary files that a process
    /// killed while writing `path` left behind are removed first.
    ///
    /// The temporary file is named `.NAME.PID-XXXXXX.partial`, PID being the writing
    /// process's, so that a later writer can tell an abandoned one from one being written.
    package static func replace(_ path: String, durable: Bool = true, write: (String) throws -> Void) throws {
        let (directory, name) = split(path)
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw RendererError(.ioFailure, "\(path) is a directory, not a file to save to")
        }
        removeAbandonedFiles(of: name, in: directory)
        var template = Array("\(directory)/.\(name).\(getpid())-XXXXXX.partial".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 8) }
        guard descriptor >= 0 else {
            throw RendererError(.ioFailure, "cannot write \(path): cannot create a file in \(directory): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            try write(temporary)
            try setPermissions(of: temporary, like: path)
            if durable { try flush(temporary) }
            // A writer holding the file's lock keeps it on the new file from the moment it is there.
            FileWriteLock.lockReplacement(temporary, of: path)
            guard rename(temporary, path) == 0 else {
                throw RendererError(.ioFailure, "cannot write \(path): cannot rename the new file into place: \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary)
            throw error
        }
        if durable { try? flush(directory) }
    }

    /// Writes `data` to `path` as ``replace(_:durable:write:)`` does: flushed, and a replaced
    /// file keeps its permissions, which Foundation's atomic write does not keep (a 0600
    /// file it replaces becomes 0644).
    package static func write(_ data: Data, to path: String, durable: Bool = true) throws {
        try replace(path, durable: durable) { temporary in
            do {
                try data.write(to: URL(fileURLWithPath: temporary))
            } catch {
                throw RendererError(.ioFailure, "cannot write \(path): \(error.reason)")
            }
        }
    }

    /// `path`'s directory (`.` for a bare name) and last component, as written: the new
    /// file goes beside the one it replaces, so no path needs resolving.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }

    /// Removes the temporary files of the file `name` in `directory` whose writing process
    /// no longer runs. The directory is read entry by entry, and only names with the
    /// temporary files' prefix become strings: a folder of thousands of files costs a save
    /// one pass over its entries.
    static func removeAbandonedFiles(of name: String, in directory: String) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        let prefix = Array(".\(name).".utf8)
        while let entry = readdir(stream) {
            let candidate = withUnsafeBytes(of: &entry.pointee.d_name) { bytes -> String? in
                guard bytes.starts(with: prefix) else { return nil }
                return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let candidate, candidate.hasSuffix(".partial") else { continue }
            let middle = candidate.dropFirst(prefix.count).dropLast(".partial".count)
            guard let dash = middle.firstIndex(of: "-"), middle.distance(from: dash, to: middle.endIndex) == 7,
                let pid = pid_t(middle[..<dash]), pid > 0, kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink("\(directory)/\(candidate)")
        }
    }

    /// Gives the new file the mode of the file it replaces, or the default mode for new files.
    private static func setPermissions(of temporary: String, like target: String) throws {
        var status = stat()
        let mode: mode_t
        if stat(target, &status) == 0 {
            mode = status.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        guard chmod(temporary, mode) == 0 else {
            throw RendererError(.ioFailure, "cannot set the permissions of \(temporary): \(String(cString: strerror(errno)))")
        }
    }

    /// Flushes a file's or directory's data to disk.
    private static func flush(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw RendererError(.ioFailure, "cannot open \(path) to flush it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw RendererError(.ioFailure, "cannot flush \(path) to disk: \(String(cString: strerror(errno)))")
        }
    }
}
