import Foundation

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
        guard stat(path, &status) == 0 else { throw Self.failure(errno, path, doing: "read") }
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
            throw RendererError(.ioFailure, "the directory \(path) cannot be created: \(error.localizedDescription)")
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
        guard Glibc.rename(source, destination) == 0 else { throw Self.failure(errno, source, doing: "rename to \(destination)") }
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

    static func failure(_ number: Int32, _ path: String, doing action: String) -> RendererError {
        let reason = String(cString: strerror(number))
        return number == ENOENT
            ? RendererError(.fileNotFound, "\(path): no such file")
            : RendererError(.ioFailure, "cannot \(action) \(path): \(reason)")
    }
}

/// One open file of the ``LocalFileSystem``, closed in `deinit` if not before.
final class LocalFile: FileUpdateHandle, FileWriteHandle {
    private var descriptor: Int32
    private let path: String
    private var appendOffset = 0

    init(path: String, flags: Int32) throws {
        descriptor = open(path, flags | O_CLOEXEC, 0o666)
        self.path = path
        guard descriptor >= 0 else { throw LocalFileSystem.failure(errno, path, doing: "open") }
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    var length: Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw LocalFileSystem.failure(errno, path, doing: "read") }
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try write(bytes, at: appendOffset)
        appendOffset += bytes.count
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw LocalFileSystem.failure(errno, path, doing: "write")
            }
            done += n
        }
    }

    func truncate(to length: Int) throws {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw LocalFileSystem.failure(errno, path, doing: "truncate") }
    }

    func close() throws {
        guard descriptor >= 0 else { return }
        let status = Glibc.close(descriptor)
        descriptor = -1
        guard status == 0 else { throw LocalFileSystem.failure(errno, path, doing: "close") }
    }
}
