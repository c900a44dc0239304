#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

#if canImport(Glibc)
    import Glibc
#endif

/// A file opened for writing from its start, closed in `deinit` if ``close()`` was not called.
/// Errors are `ioFailure`s that name the file.
final class FileOutput {
    private let path: String
    private var descriptor: Int32

    /// Creates the file at `path` or empties the one there.
    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Self.failure("cannot create \(path)") }
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Writes all of `bytes` after what was written before.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Self.failure("cannot write \(path)") }
            offset += written
        }
    }

    /// Closes the file, reporting an error the system reports only then (a full disk on
    /// some file systems).
    func close() throws {
        let result = Glibc.close(descriptor)
        descriptor = -1
        guard result == 0 else { throw Self.failure("cannot write \(path)") }
    }

    private static func failure(_ what: String) -> RendererError {
        RendererError(.ioFailure, "\(what): \(String(cString: strerror(errno)))")
    }
}
