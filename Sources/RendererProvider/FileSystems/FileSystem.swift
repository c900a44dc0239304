#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where an application keeps its documents, when that is not the plain disk: an encrypted
/// store, a container, memory. Sessions open and save documents through it, and both
/// engines read documents from it (``FileSystem/documentStream(_:)``) without the bytes
/// ever being written anywhere else.
///
/// ### Implementation requirements
/// - Paths are the file system's own, `/`-separated; what they mean is up to it.
/// - Every failure throws a `RendererError`: `fileNotFound` for a missing entry, `ioFailure`
///   for one that cannot be read or written, and whatever the store's own checks find
///   (a wrong key, a tampered entry) under the codes `RendererError.Code`
///   names for them.
/// - ``rename(_:to:)`` replaces the target, if any, in one step: a reader sees the old or
///   the new entry, never a mix. Saves rely on it.
/// - A handle is used by one thread at a time; the file system itself is shared.
public protocol FileSystem: Sendable {
    /// True when what it stores never reaches a disk in plain text.
    var isSecure: Bool { get }
    /// True when entries can be created, changed and removed.
    var isWritable: Bool { get }

    /// What the entry at `path` is: its contents' size, modification date, whether it is a
    /// directory.
    func attributes(of path: String) throws -> FileAttributes
    /// The names (not paths) in the directory at `path`, sorted.
    func contentsOfDirectory(at path: String) throws -> [String]
    /// True when there is an entry at `path`.
    func exists(_ path: String) -> Bool
    /// Creates the directory and any missing parents.
    func createDirectory(at path: String) throws
    /// Creates (or replaces) the file at `path` with `contents`. The default writes them
    /// through ``openForWriting(_:)``.
    func createFile(at path: String, contents: Data) throws
    /// Copies a file's contents to a new (or replaced) file. The default reads through
    /// ``openForReading(_:)`` and writes through ``openForWriting(_:)``.
    func copy(_ source: String, to destination: String) throws
    /// Removes the file, or the directory with everything in it.
    func delete(_ path: String) throws
    /// Moves the entry at `source` to `destination`, replacing what was there, in one step.
    func rename(_ source: String, to destination: String) throws

    /// The file's bytes, read by position.
    func openForReading(_ path: String) throws -> any RandomAccessReader
    /// A new (or emptied) file, written from its start.
    func openForWriting(_ path: String) throws -> any FileWriteHandle
    /// An existing file, read and written by position.
    func openForUpdating(_ path: String) throws -> any FileUpdateHandle
}

extension FileSystem {
    public func createFile(at path: String, contents: Data) throws {
        let handle = try openForWriting(path)
        try contents.withUnsafeBytes { try handle.write($0) }
        try handle.close()
    }

    public func copy(_ source: String, to destination: String) throws {
        let writer = try openForWriting(destination)
        try openForReading(source).copy(into: writer)
        try writer.close()
    }
}

/// What a file system tells of an entry.
public struct FileAttributes: Hashable, Sendable {
    /// The size of a file's contents in bytes (what a reader reads, not what is stored).
    public var size: Int
    /// When the entry was last changed.
    public var modificationDate: Date?
    /// True for a directory.
    public var isDirectory: Bool

    /// Attributes as given.
    public init(size: Int, modificationDate: Date?, isDirectory: Bool) {
        self.size = size
        self.modificationDate = modificationDate
        self.isDirectory = isDirectory
    }
}
