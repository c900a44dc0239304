#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// One writer of a file at a time, across threads and processes: an advisory lock
/// (`flock`) on the file itself that every writer of this project takes (the command line's
/// editing commands, the server's edits) from before it reads the file it will change until
/// the new file is renamed into place and the writer is done with it. Readers take none.
///
/// Saves replace a file by renaming a new one over it, so a lock taken on the old file would
/// not keep out a writer that opens the new one. Two rules close that gap: after it gets the
/// lock, a writer checks that the path still names the file it locked, and locks the new one
/// otherwise; and a holder that replaces its file locks the new file before the rename puts
/// it at the path (`AtomicFile` does, through `lockReplacement(_:of:)`), so that the new
/// file is never there unlocked while the holder still works on it.
///
/// A file that does not exist yet is not locked (there is nothing to lose). The lock is
/// released by ``release()`` or when the value is freed.
public final class FileWriteLock: Sendable {
    /// How long a writer waits for another by default, in seconds.
    public static let defaultTimeout: TimeInterval = 30

    /// The path locked, standardized.
    private let path: String
    /// The locked file and, after a replacement, the new one; emptied by ``release()``.
    private let descriptors: Locked<[Int32]>

    /// The locks this process holds, by standardized path; weakly, so that a lock freed
    /// without ``release()`` is released by its `deinit`.
    private static let held = Locked<[String: Held]>([:])

    private struct Held {
        weak var lock: FileWriteLock?
    }

    /// `path` as the locks this process holds are filed by.
    private static func key(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

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
                    let lock = FileWriteLock(path: key(path), descriptor: descriptor)
                    held.withLock { $0[lock.path] = Held(lock: lock) }
                    return lock
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

    /// Locks `temporary`, the new file about to be renamed over `path`, when this process
    /// holds the lock of `path`; the lock then covers both until it is released. Does
    /// nothing otherwise.
    static func lockReplacement(_ temporary: String, of path: String) {
        guard let lock = held.withLock({ $0.isEmpty ? nil : $0[key(path)]?.lock }) else { return }
        let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        // A file only this writer knows: the lock is free.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return
        }
        lock.descriptors.withLock { $0.append(descriptor) }
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptors = Locked([descriptor])
    }

    /// Releases the lock (of the file locked and of any that replaced it).
    public func release() {
        Self.held.withLock { held in
            if let entry = held[path], entry.lock == nil || entry.lock === self { held[path] = nil }
        }
        let locked = descriptors.withLock { descriptors in
            defer { descriptors = [] }
            return descriptors
        }
        for descriptor in locked {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    deinit {
        release()
    }
}
