import Crypto
import Foundation
import RendererProvider

/// How one vault entry is laid out on disk: a header, then the contents in fixed-size
/// chunks, each sealed on its own with AES-GCM so that a read decrypts only the chunks it
/// touches.
///
/// ``
/// header   "RPVAULT1" | chunk size (UInt32 LE) | length (UInt64 LE) | file id (16)
///          | nonce (12) | tag (16): AES-GCM over no plaintext, authenticating the 36 bytes before
/// chunk i  nonce (12) | ciphertext (chunk size, the last one shorter) | tag (16),
///          authenticating file id | i (UInt64 LE) | 1 for the last chunk, else 0
/// ``
///
/// The header's tag proves the key (a wrong key fails there) and binds the length and file
/// id; each chunk's authenticated data binds it to its file, its place and whether it ends
/// the file, so a changed, reordered, swapped or dropped chunk fails its check, and a file
/// cut short does not have the size its authenticated length demands. Nonces are random,
/// new for every chunk written, and so is the file id of every write, which the vault's
/// index (`VaultIndex`) records for the entry's path.
struct VaultFormat {
    static let magic = Data("RPVAULT1".utf8)
    static let headerSize = 64
    static let authenticatedHeaderSize = 36
    static let overhead = 12 + 16
    static let defaultChunkSize = 64 * 1024

    let chunkSize: Int
    let length: Int
    let fileID: Data

    /// The number of chunks the contents take.
    var chunkCount: Int { (length + chunkSize - 1) / chunkSize }

    /// The size of the entry on disk.
    var storedSize: Int {
        length == 0 ? Self.headerSize : Self.headerSize + chunkCount * Self.overhead + length
    }

    /// Where chunk `index` starts on disk.
    func offset(ofChunk index: Int) -> Int {
        Self.headerSize + index * (chunkSize + Self.overhead)
    }

    /// The plaintext size of chunk `index`.
    func size(ofChunk index: Int) -> Int {
        min(chunkSize, length - index * chunkSize)
    }

    /// Copies the contents at `offset` into `buffer` from the plaintexts `chunk` gives;
    /// returns how many bytes, fewer only at the end.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer, chunk: (Int) throws -> Data) throws -> Int {
        var done = 0
        while done < buffer.count, offset + done < length {
            let position = offset + done
            let index = position / chunkSize
            let plaintext = try chunk(index)
            let start = position - index * chunkSize
            let count = min(buffer.count - done, plaintext.count - start)
            guard count > 0 else { break }
            plaintext.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: buffer[done..<done + count])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + count]))
            }
            done += count
        }
        return done
    }

    /// The header sealed with `key`.
    func header(key: VaultKey) throws -> Data {
        var header = Self.magic
        withUnsafeBytes(of: UInt32(chunkSize).littleEndian) { header.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(length).littleEndian) { header.append(contentsOf: $0) }
        header.append(fileID)
        let sealed = try AES.GCM.seal(Data(), using: key.key, nonce: AES.GCM.Nonce(), authenticating: header)
        header.append(contentsOf: sealed.nonce)
        header.append(sealed.tag)
        return header
    }

    /// The format a header describes, after checking it was written with `key`:
    /// `unsupportedFormat` for bytes that are not a vault header, `wrongKey` when the key
    /// does not open it (or the header was changed).
    init(header: Data, key: VaultKey, name: String) throws {
        guard header.count == Self.headerSize, header.prefix(8) == Self.magic else {
            throw RendererError(.unsupportedFormat, "\(name) is not an encrypted vault entry")
        }
        let bytes = [UInt8](header)
        let chunkSize = Int(bytes[8..<12].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let length = bytes[12..<20].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard chunkSize >= 1024, chunkSize <= 1 << 24, length < UInt64(Int.max / 2) else {
            throw RendererError(.unsupportedFormat, "\(name) is not an encrypted vault entry: its header is out of range")
        }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: header[36..<48]), ciphertext: Data(), tag: header[48..<64])
            _ = try AES.GCM.open(box, using: key.key, authenticating: header.prefix(Self.authenticatedHeaderSize))
        } catch {
            throw RendererError(.wrongKey, "the key does not open \(name) (or its header was changed)")
        }
        self.init(chunkSize: chunkSize, length: Int(length), fileID: Data(header[20..<36]))
    }

    /// A new random file id: every write of an entry seals it under a new one.
    static func newFileID() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    init(chunkSize: Int, length: Int, fileID: Data) {
        self.chunkSize = chunkSize
        self.length = length
        self.fileID = fileID
    }

    /// Chunk `index`'s plaintext sealed: nonce, ciphertext and tag, as stored.
    func seal(_ plaintext: Data, chunk index: Int, isLast: Bool, key: VaultKey) throws -> Data {
        let sealed = try AES.GCM.seal(plaintext, using: key.key, nonce: AES.GCM.Nonce(), authenticating: authenticatedData(index, isLast))
        var stored = Data(sealed.nonce)
        stored.append(sealed.ciphertext)
        stored.append(sealed.tag)
        return stored
    }

    /// Chunk `index`'s plaintext from what is stored; `tampered` when it fails its check.
    func open(_ stored: Data, chunk index: Int, key: VaultKey, name: String) throws -> Data {
        let isLast = index == chunkCount - 1
        guard stored.count == size(ofChunk: index) + Self.overhead else {
            throw RendererError(.tampered, "\(name) is cut short: chunk \(index + 1) of \(chunkCount) is incomplete")
        }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: stored.prefix(12)), ciphertext: stored.dropFirst(12).dropLast(16), tag: stored.suffix(16))
            return try AES.GCM.open(box, using: key.key, authenticating: authenticatedData(index, isLast))
        } catch {
            throw RendererError(.tampered, "chunk \(index + 1) of \(name) failed its integrity check: it was changed, moved or swapped")
        }
    }

    private func authenticatedData(_ index: Int, _ isLast: Bool) -> Data {
        var data = fileID
        withUnsafeBytes(of: UInt64(index).littleEndian) { data.append(contentsOf: $0) }
        data.append(isLast ? 1 : 0)
        return data
    }
}
