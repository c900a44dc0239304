#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request to copy a session's saved internal file back over its original, both in the
/// session's file system.
public struct CopyBackRequest: Hashable, Sendable, CustomStringConvertible {
    /// The saved file.
    public var internalPath: String
    /// Where it goes.
    public var originalPath: String
    /// The file system both paths are in.
    public var fileSystem: any FileSystem

    /// A request to copy `internalPath` over `originalPath`, both in `fileSystem`.
    public init(internalPath: String, originalPath: String, fileSystem: any FileSystem = LocalFileSystem()) {
        self.internalPath = internalPath
        self.originalPath = originalPath
        self.fileSystem = fileSystem
    }

    public var description: String { "copy \(internalPath) back to \(originalPath)" }

    /// Requests are equal when they copy the same paths.
    public static func == (lhs: CopyBackRequest, rhs: CopyBackRequest) -> Bool {
        (lhs.internalPath, lhs.originalPath) == (rhs.internalPath, rhs.originalPath)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(internalPath)
        hasher.combine(originalPath)
    }

    /// Copies the internal file over the original atomically: the original is at every
    /// moment its old or its new content (on the local disk also flushed before the
    /// rename). Throws `ioFailure` naming both files.
    public func copy() throws {
        do {
            if fileSystem is LocalFileSystem {
                try AtomicFile.replace(originalPath) { temporary in try LocalFileSystem().copy(internalPath, to: temporary) }
            } else {
                try fileSystem.replaceAtomically(originalPath) { try fileSystem.openForReading(internalPath).copy(into: $0) }
            }
        } catch let error as RendererError {
            throw RendererError(.ioFailure, "\(internalPath) could not be copied back to \(originalPath): \(error.message)")
        }
    }
}

extension CopyBackRequest {
    /// Copies as ``copy()`` does, and answers as a host answers the request.
    public func copyAndAnswer() -> CopyBackAnswer {
        do {
            try copy()
            return .done
        } catch {
            return .failed("\(error)")
        }
    }
}

/// The host's answer to a ``CopyBackRequest``.
public enum CopyBackAnswer: Hashable, Sendable {
    /// The host copied the file back.
    case done
    /// The host could not; the reason is reported in a `copyBackFailed` event.
    case failed(String)
}

/// What a file was when a session opened it: its size, modification time and a digest of
/// its contents, to tell later whether someone else changed it.
struct FileStamp: Hashable, Sendable {
    var size: Int
    var modificationDate: Date?
    var digest: UInt64

    /// The stamp of the file at `path` in `fileSystem`.
    init(of path: String, in fileSystem: any FileSystem) throws {
        let attributes = try fileSystem.attributes(of: path)
        size = attributes.size
        modificationDate = attributes.modificationDate
        digest = try Self.digest(of: fileSystem.openForReading(path))
    }

    /// FNV-1a over the contents, read in blocks: a change detector, not a security hash.
    private static func digest(of reader: any RandomAccessReader) throws -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < reader.length {
            let n = try buffer.withUnsafeMutableBytes { try reader.read(at: offset, into: $0) }
            guard n > 0 else { break }
            for byte in buffer[..<n] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            offset += n
        }
        return hash
    }
}
