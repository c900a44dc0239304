import CGhostscript
import Foundation
import RendererEngine

/// An anonymous file in memory (memfd) with a name Ghostscript can open, for the documents
/// it reads and the text it writes: gsapi reads and writes files only by name. Closed, and
/// so gone, with this object.
final class MemoryFile {
    let descriptor: Int32
    /// The name that opens this file from this process and its children.
    let path: String

    init() throws {
        descriptor = cgs_memory_file("ghostscript")
        guard descriptor >= 0 else {
            throw RendererError(.ioFailure, "cannot make a file in memory (memfd_create: errno \(errno))", rendererID: Ghostscript.rendererID)
        }
        path = "/proc/\(getpid())/fd/\(descriptor)"
    }

    deinit {
        close(descriptor)
    }

    /// Writes `data` at the end of the file.
    func append(_ data: Data) throws {
        let complete = data.withUnsafeBytes { bytes -> Bool in
            var written = 0
            while written < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
        guard complete else { throw RendererError(.ioFailure, "cannot write a file in memory (errno \(errno))", rendererID: Ghostscript.rendererID) }
    }

    /// The whole file as it is now, refused as `limitExceeded` when it holds more than `limit` bytes.
    func contents(limit: Int) throws -> Data {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw RendererError(.ioFailure, "cannot read a file in memory (errno \(errno))", rendererID: Ghostscript.rendererID)
        }
        let size = Int(status.st_size)
        guard size <= limit else { throw RendererError(.limitExceeded, "Ghostscript wrote more than \(limit) bytes", rendererID: Ghostscript.rendererID) }
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { bytes -> Bool in
            var read = 0
            while read < size {
                let count = pread(descriptor, bytes.baseAddress! + read, size - read, off_t(read))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                read += count
            }
            return true
        }
        guard complete else { throw RendererError(.ioFailure, "cannot read a file in memory (errno \(errno))", rendererID: Ghostscript.rendererID) }
        return data
    }
}
