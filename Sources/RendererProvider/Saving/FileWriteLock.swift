import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One writer of a file at a time, across threads and processes: an advisory lock
/// (`flock`) on the file itself that every writer of this project takes (the command line's
/// editing commands, the server's edits) from before it reads the file it will change until
/// the new file is renamed into place. Readers take none.
///
/// Saves replace a file by renaming a new one over it, so a lock taken on the old file would
/// not keep out a writer that opens the new one: after it gets the lock, a writer checks that
/// the path still names the file it locked, and locks the new one otherwise.
///
/// A file that does not exist yet is not locked (there is nothing to lose). The lock is
/// released by ``release()`` or when the value is freed.
public final class FileWriteLock: Sendable {
    /// How long a writer waits for another by default, in seconds.
    public static let defaultTimeout: TimeInterval = 30

    private let descriptor: Int32

    /// Takes the lock of the file at `path`, waiting up to `timeout` seconds for the writer
    /// that holds it; throws `conflict` (naming the file as `displayName`) when it is still
    /// held then, `ioFailure` when the file cannot be opened. Nil when there is no file.
    public static func acquire(_ path: String, displayName: String? = nil, timeout: TimeInterval = defaultTimeout) throws -> FileWriteLock? {
        let deadline = Date().addingTimeInterval(timeout)
        var wait: UInt32 = 1_000
        while true {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 {
                if errno == ENOENT { return nil }
                throw RendererError(.ioFailure, "cannot open \(displayName ?? path) to lock it: \(String(cString: strerror(errno)))")
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                // The lock holds only if the path still names this file (a writer before us may
                // have renamed a new one over it while we waited).
                var locked = stat(), current = stat()
                if fstat(descriptor, &locked) == 0, stat(path, &current) == 0, locked.st_ino == current.st_ino, locked.st_dev == current.st_dev {
                    return FileWriteLock(descriptor: descriptor)
                }
                close(descriptor)
                continue
            }
            close(descriptor)
            guard Date() < deadline else {
                throw RendererError(.conflict, "\(displayName ?? path) is being changed by another writer; try again")
            }
            usleep(wait)
            wait = min(wait * 2, 50_000)
        }
    }

    /// Runs `body` holding the lock of the file at `path` (see ``acquire(_:displayName:timeout:)``).
    public static func holding<T>(_ path: String, displayName: String? = nil, timeout: TimeInterval = defaultTimeout, _ body: () throws -> T) throws -> T {
        let lock = try acquire(path, displayName: displayName, timeout: timeout)
        defer { lock?.release() }
        return try body()
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Releases the lock.
    public func release() {
        flock(descriptor, LOCK_UN)
    }

    deinit {
        close(descriptor)
    }
}
