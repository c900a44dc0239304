import Foundation
import RendererProvider

/// Reads a vault entry by position, decrypting only the chunks a read touches (and keeping
/// the last one, which the next read usually touches again).
public final class VaultReader: RandomAccessReader {
    let format: VaultFormat
    private let file: any RandomAccessReader
    private let key: VaultKey
    private let name: String
    private var cached: (index: Int, plaintext: Data)?
    /// How many chunks this reader has decrypted: what its reads cost.
    public private(set) var decryptedChunks = 0

    init(file: any RandomAccessReader, key: VaultKey, name: String) throws {
        self.file = file
        self.key = key
        self.name = name
        format = try VaultFormat(header: try Self.read(file, at: 0, count: VaultFormat.headerSize), key: key, name: name)
        guard file.length == format.storedSize else {
            throw RendererError(
                .tampered, "\(name) is \(file.length) bytes where its \(format.length) bytes of contents take \(format.storedSize): it was cut short or extended")
        }
    }

    public var length: Int { format.length }

    public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try format.read(at: offset, into: buffer, chunk: chunk)
    }

    /// The plaintext of chunk `index`.
    func chunk(_ index: Int) throws -> Data {
        if let cached, cached.index == index { return cached.plaintext }
        let stored = try Self.read(file, at: format.offset(ofChunk: index), count: format.size(ofChunk: index) + VaultFormat.overhead)
        let plaintext = try format.open(stored, chunk: index, key: key, name: name)
        decryptedChunks += 1
        cached = (index, plaintext)
        return plaintext
    }

    /// Exactly `count` bytes of `file` at `offset`, or fewer where the file ends.
    static func read(_ file: any RandomAccessReader, at offset: Int, count: Int) throws -> Data {
        var data = Data(count: count)
        var done = 0
        try data.withUnsafeMutableBytes { buffer in
            while done < count {
                let n = try file.read(at: offset + done, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
                if n == 0 { break }
                done += n
            }
        }
        return data.prefix(done)
    }
}

/// Writes a new vault entry from its start, under a new file id: each chunk is sealed and
/// written once the next byte after it arrives (only then is it known not to be the last);
/// the last chunk and the header, with the length, are written by `close()`, which then
/// hands the file id to `written` (the vault records it in its index).
final class VaultWriter: FileWriteHandle {
    private let file: any FileUpdateHandle
    private let key: VaultKey
    private let fileID = VaultFormat.newFileID()
    private let chunkSize: Int
    private let recorded: (Data) throws -> Void
    private var pending = Data()
    private var written = 0
    private var closed = false

    init(file: any FileUpdateHandle, key: VaultKey, chunkSize: Int, written recorded: @escaping (Data) throws -> Void) {
        self.file = file
        self.key = key
        self.chunkSize = chunkSize
        self.recorded = recorded
    }

    private var format: VaultFormat { VaultFormat(chunkSize: chunkSize, length: written * chunkSize + pending.count, fileID: fileID) }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        pending.append(contentsOf: bytes)
        while pending.count > chunkSize {
            let sealed = try format.seal(pending.prefix(chunkSize), chunk: written, isLast: false, key: key)
            try sealed.withUnsafeBytes { try file.write($0, at: format.offset(ofChunk: written)) }
            pending.removeFirst(chunkSize)
            written += 1
        }
    }

    func close() throws {
        guard !closed else { return }
        closed = true
        let format = self.format
        if !pending.isEmpty {
            let sealed = try format.seal(pending, chunk: written, isLast: true, key: key)
            try sealed.withUnsafeBytes { try file.write($0, at: format.offset(ofChunk: written)) }
        }
        try format.header(key: key).withUnsafeBytes { try file.write($0, at: 0) }
        try file.truncate(to: format.storedSize)
        try file.close()
        try recorded(fileID)
    }
}

/// Reads and writes a vault entry by position. Changed chunks are kept in memory; when
/// anything changed, `close()` seals every chunk anew under a new file id (so that no chunk
/// of the earlier entry can be mixed into the new one), then the header with the new
/// length, and hands the new id to `written`. A crash during `close` leaves an entry that
/// fails its checks (`tampered`), never one that reads wrong; saves use `VaultWriter`
/// through a temporary entry instead.
final class VaultUpdater: FileUpdateHandle {
    private let file: any FileUpdateHandle
    private let reader: VaultReader
    private let key: VaultKey
    private let recorded: (Data) throws -> Void
    private var format: VaultFormat
    private var changed: [Int: Data] = [:]
    private var closed = false

    init(file: any FileUpdateHandle, key: VaultKey, name: String, written recorded: @escaping (Data) throws -> Void) throws {
        self.file = file
        self.key = key
        self.recorded = recorded
        reader = try VaultReader(file: file, key: key, name: name)
        format = reader.format
    }

    var length: Int { format.length }

    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try format.read(at: offset, into: buffer, chunk: chunk)
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        if offset > format.length { try truncate(to: offset) }
        var done = 0
        while done < bytes.count {
            let position = offset + done
            let index = position / format.chunkSize
            let start = position - index * format.chunkSize
            let count = min(bytes.count - done, format.chunkSize - start)
            var plaintext = Data(try chunk(index))  // zero-based indices for replaceSubrange
            if plaintext.count < start + count { plaintext.append(Data(count: start + count - plaintext.count)) }
            plaintext.replaceSubrange(start..<start + count, with: UnsafeRawBufferPointer(rebasing: bytes[done..<done + count]))
            changed[index] = plaintext
            done += count
        }
        format = VaultFormat(chunkSize: format.chunkSize, length: max(format.length, offset + bytes.count), fileID: format.fileID)
    }

    func truncate(to length: Int) throws {
        if length > format.length {
            let zeros = Data(count: length - format.length)
            try zeros.withUnsafeBytes { try write($0, at: format.length) }
            return
        }
        let count = (length + format.chunkSize - 1) / format.chunkSize
        changed = changed.filter { $0.key < count }
        if length % format.chunkSize != 0 {
            changed[count - 1] = try chunk(count - 1).prefix(length - (count - 1) * format.chunkSize)
        }
        format = VaultFormat(chunkSize: format.chunkSize, length: length, fileID: format.fileID)
    }

    func close() throws {
        guard !closed else { return }
        closed = true
        guard !changed.isEmpty || format.length != reader.format.length else { return try file.close() }
        // Every chunk, in order, read under the old id before it is overwritten under the new.
        let sealing = VaultFormat(chunkSize: format.chunkSize, length: format.length, fileID: VaultFormat.newFileID())
        let count = sealing.chunkCount
        for index in 0..<count {
            let sealed = try sealing.seal(try chunk(index), chunk: index, isLast: index == count - 1, key: key)
            try sealed.withUnsafeBytes { try file.write($0, at: sealing.offset(ofChunk: index)) }
        }
        try sealing.header(key: key).withUnsafeBytes { try file.write($0, at: 0) }
        try file.truncate(to: sealing.storedSize)
        try file.close()
        try recorded(sealing.fileID)
    }

    /// Chunk `index` as it is now: changed, stored, or (past the stored chunks) empty.
    private func chunk(_ index: Int) throws -> Data {
        if let plaintext = changed[index] { return plaintext }
        guard index < reader.format.chunkCount else { return Data() }
        return try reader.chunk(index)
    }
}
