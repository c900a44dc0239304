import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Replaces a file so that it is at every moment either its old or its complete new self.
enum AtomicFile {
    /// Calls `write` with the path of a new temporary file in `path`'s directory, flushes
    /// what it wrote to disk when `durable` (so a crash of the system cannot lose it either)
    /// and renames it over `path`. On any failure the temporary file is removed and `path`
    /// is untouched. A replaced file keeps its permissions. Temporary files that a process
    /// killed while writing `path` left behind are removed first.
    ///
    /// The temporary file is named `.NAME.PID-XXXXXX.partial`, PID being the writing
    /// process's, so that a later writer can tell an abandoned one from one being written.
    static func replace(_ path: String, durable: Bool = true, write: (String) throws -> Void) throws {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let directory = target.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw RendererError(.ioFailure, "\(path) is a directory, not a file to save to")
        }
        removeAbandonedFiles(of: target)
        var template = Array("\(directory)/.\(target.lastPathComponent).\(getpid())-XXXXXX.partial".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 8) }
        guard descriptor >= 0 else {
            throw RendererError(.ioFailure, "cannot write \(path): cannot create a file in \(directory): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            try write(temporary)
            try setPermissions(of: temporary, like: target.path)
            if durable { try flush(temporary) }
            // A writer holding the file's lock keeps it on the new file from the moment it is there.
            FileWriteLock.lockReplacement(temporary, of: target.path)
            guard rename(temporary, target.path) == 0 else {
                throw RendererError(.ioFailure, "cannot write \(path): cannot rename the new file into place: \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary)
            throw error
        }
        if durable { try? flush(directory) }
    }

    /// Removes the temporary files of `target` whose writing process no longer runs.
    static func removeAbandonedFiles(of target: URL) {
        let directory = target.deletingLastPathComponent()
        let prefix = ".\(target.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".partial") {
            let middle = name.dropFirst(prefix.count).dropLast(".partial".count)
            guard let dash = middle.firstIndex(of: "-"), middle.distance(from: dash, to: middle.endIndex) == 7,
                let pid = pid_t(middle[..<dash]), pid > 0, kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink(directory.appendingPathComponent(name).path)
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
