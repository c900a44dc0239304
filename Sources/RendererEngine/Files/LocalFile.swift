#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// One open file on the local disk, by its descriptor, closed in `deinit` if not before:
/// the files of `LocalFileSystem`, and those the commands and the content sniffer read.
package final class LocalFile: FileUpdateHandle, FileWriteHandle {
    private var descriptor: Int32
    private let path: String
    private var appendOffset = 0

    package init(path: String, flags: Int32) throws {
        descriptor = open(path, flags | O_CLOEXEC, 0o666)
        self.path = path
        guard descriptor >= 0 else { throw LocalFile.failure(errno, path, doing: "open") }
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    package var length: Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw LocalFile.failure(errno, path, doing: "read") }
        }
    }

    /// Up to `limit` bytes read in order from the start (read(2)), fewer when the file ends
    /// first: unlike ``read(at:into:)``, this reads pipes and devices too (`<(…)`,
    /// `/dev/stdin`), whose length is 0.
    package func readInOrder(atMost limit: Int) throws -> [UInt8] {
        do {
            return try Self.readInOrder(descriptor, atMost: limit)
        } catch {
            throw LocalFile.failure(error.code.rawValue, path, doing: "read")
        }
    }

    /// Up to `limit` bytes read in order from `descriptor`, from where it stands, fewer when
    /// it ends first; throws the `POSIXError` of a failed read.
    package static func readInOrder(_ descriptor: Int32, atMost limit: Int = .max) throws(POSIXError) -> [UInt8] {
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let wanted = min(block.count, limit - bytes.count)
            let n = block.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            bytes += block[..<n]
        }
        return bytes
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        try write(bytes, at: appendOffset)
        appendOffset += bytes.count
    }

    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw LocalFile.failure(errno, path, doing: "write")
            }
            done += n
        }
    }

    package func truncate(to length: Int) throws {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw LocalFile.failure(errno, path, doing: "truncate") }
    }

    package func close() throws {
        guard descriptor >= 0 else { return }
        let status = Glibc.close(descriptor)
        descriptor = -1
        guard status == 0 else { throw LocalFile.failure(errno, path, doing: "close") }
    }

    /// True when `path` names a directory (or a link to one); false when it names anything
    /// else or nothing.
    package static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// `fileNotFound` for `ENOENT`, else `ioFailure` with the system's words for `number`.
    package static func failure(_ number: Int32, _ path: String, doing action: String) -> RendererError {
        let reason = String(cString: strerror(number))
        return number == ENOENT
            ? RendererError(.fileNotFound, "\(path): no such file")
            : RendererError(.ioFailure, "cannot \(action) \(path): \(reason)")
    }
}
