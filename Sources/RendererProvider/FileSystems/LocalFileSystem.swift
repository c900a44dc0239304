#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// The disk as it is: paths are the operating system's, contents in plain text.
public struct LocalFileSystem: FileSystem {
    /// The local disk.
    public init() {}

    public var isSecure: Bool { false }
    public var isWritable: Bool { true }

    /// The file's `stat`: size, modification time, whether it is a directory.
    public func attributes(of path: String) throws -> FileAttributes {
        var status = stat()
        guard stat(path, &status) == 0 else { throw LocalFile.failure(errno, path, doing: "read") }
        let modified = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1e9)
        return FileAttributes(size: Int(status.st_size), modificationDate: modified, isDirectory: status.st_mode & S_IFMT == S_IFDIR)
    }

    public func contentsOfDirectory(at path: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw exists(path) ? RendererError(.ioFailure, "\(path) cannot be listed") : RendererError(.fileNotFound, "\(path): no such directory")
        }
    }

    /// True when something exists at `path`.
    public func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    public func createDirectory(at path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw RendererError(.ioFailure, "the directory \(path) cannot be created: \(error.reason)")
        }
    }

    public func delete(_ path: String) throws {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw exists(path) ? RendererError(.ioFailure, "\(path) cannot be removed") : RendererError(.fileNotFound, "\(path): no such file")
        }
    }

    /// Renames with `rename(2)`: atomic within one file system.
    public func rename(_ source: String, to destination: String) throws {
        guard Glibc.rename(source, destination) == 0 else { throw LocalFile.failure(errno, source, doing: "rename to \(destination)") }
    }

    public func openForReading(_ path: String) throws -> any RandomAccessReader {
        try LocalFile(path: path, flags: O_RDONLY)
    }

    public func openForWriting(_ path: String) throws -> any FileWriteHandle {
        try LocalFile(path: path, flags: O_WRONLY | O_CREAT | O_TRUNC)
    }

    public func openForUpdating(_ path: String) throws -> any FileUpdateHandle {
        try LocalFile(path: path, flags: O_RDWR)
    }
}
