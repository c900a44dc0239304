#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a file's bytes by position. Used by one thread at a time.
public protocol RandomAccessReader: AnyObject {
    /// The number of bytes.
    var length: Int { get }
    /// Reads up to `buffer.count` bytes at `offset` (0 ≤ offset ≤ length) into `buffer`;
    /// returns how many, fewer only at the end.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Writes a file from its start. Nothing is promised to be stored before ``close()``
/// returns; a handle dropped without closing leaves an unspecified file.
public protocol FileWriteHandle: AnyObject {
    /// Appends `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Stores what was written and closes the handle; closing again does nothing.
    func close() throws
}

/// Reads and writes a file by position; writing past the end extends it (with zeros in
/// any gap). Changes are stored by ``close()``.
public protocol FileUpdateHandle: RandomAccessReader {
    /// Writes `bytes` at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws
    /// Cuts or extends (with zeros) the file to `length` bytes.
    func truncate(to length: Int) throws
    /// Stores the changes and closes the handle.
    func close() throws
}

extension RandomAccessReader {
    /// Writes every byte, in order, into `handle` (which stays open), a megabyte at a time.
    public func copy(into handle: any FileWriteHandle) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < length {
            let n = try buffer.withUnsafeMutableBytes { try read(at: offset, into: $0) }
            guard n > 0 else { throw RendererError(.ioFailure, "the file ended at \(offset) of \(length) bytes") }
            try buffer.withUnsafeBytes { try handle.write(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            offset += n
        }
    }

    /// Every byte, for small files and tests.
    public func readAll() throws -> Data {
        var data = Data(count: length)
        var offset = 0
        try data.withUnsafeMutableBytes { buffer in
            while offset < length {
                let n = try read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]))
                guard n > 0 else { throw RendererError(.ioFailure, "the file ended at \(offset) of \(length) bytes") }
                offset += n
            }
        }
        return data
    }
}
