import Foundation
import RendererProvider
import RendererProviderVault
import Testing
import TestSupport

/// The encrypted file system on its own: contents round-trip at every size around the
/// chunk boundaries, reads decrypt only the chunks they touch, and every kind of damage,
/// a wrong key and a file that is not a vault entry are typed errors.
@Suite("Vault file system")
struct VaultFormatTests {
    static let chunk = 1024

    /// A new vault in a temporary directory, with small chunks so that tests cross them.
    struct Vault {
        let directory: URL
        let key = VaultKey.generate()
        let files: VaultFileSystem

        init() throws {
            directory = try Tool.temporaryDirectory()
            files = try VaultFileSystem(root: directory.path, key: key, chunkSize: VaultFormatTests.chunk)
        }

        func stored(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }
        func store(_ data: Data, as name: String) throws { try data.write(to: directory.appendingPathComponent(name)) }
        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    static func contents(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) })
    }

    @Test func contentsRoundTripAroundChunkBoundaries() throws {
        let vault = try Vault()
        defer { vault.remove() }
        for size in [0, 1, Self.chunk - 1, Self.chunk, Self.chunk + 1, 3 * Self.chunk + Self.chunk / 2] {
            let data = Self.contents(size)
            try vault.files.createFile(at: "entry-\(size)", contents: data)
            #expect(try vault.files.openForReading("entry-\(size)").readAll() == data, "\(size) bytes")
            #expect(try vault.files.attributes(of: "entry-\(size)").size == size)
            let stored = try vault.stored("entry-\(size)")
            #expect(stored.count == 64 + (size + Self.chunk - 1) / Self.chunk * 28 + size)
            if size >= 16 { #expect(stored.range(of: data.prefix(16)) == nil, "no plaintext is stored") }
        }
        #expect(try vault.files.contentsOfDirectory(at: "").count == 6)
    }

    @Test func aReadDecryptsOnlyTheChunksItTouches() throws {
        let vault = try Vault()
        defer { vault.remove() }
        let data = Self.contents(10 * Self.chunk)
        try vault.files.createFile(at: "ten", contents: data)
        let reader = try #require(try vault.files.openForReading("ten") as? VaultReader)
        var buffer = [UInt8](repeating: 0, count: 100)
        _ = try buffer.withUnsafeMutableBytes { try reader.read(at: 7 * Self.chunk + 10, into: $0) }
        #expect(Data(buffer) == data[(7 * Self.chunk + 10)..<(7 * Self.chunk + 110)])
        #expect(reader.decryptedChunks == 1)
        _ = try buffer.withUnsafeMutableBytes { try reader.read(at: 7 * Self.chunk + 500, into: $0) }
        #expect(reader.decryptedChunks == 1, "the chunk just read is kept")
        _ = try buffer.withUnsafeMutableBytes { try reader.read(at: 3 * Self.chunk - 50, into: $0) }
        #expect(Data(buffer) == data[(3 * Self.chunk - 50)..<(3 * Self.chunk + 50)])
        #expect(reader.decryptedChunks == 3, "a read across a boundary decrypts the two chunks it spans")
    }

    @Test func aChangedChunkFailsAndTheOthersStillRead() throws {
        let vault = try Vault()
        defer { vault.remove() }
        let data = Self.contents(4 * Self.chunk)
        try vault.files.createFile(at: "doc", contents: data)
        var stored = try vault.stored("doc")
        stored[64 + 2 * (Self.chunk + 28) + 40] ^= 0x01  // a ciphertext byte of chunk 3
        try vault.store(stored, as: "doc")
        let reader = try vault.files.openForReading("doc")
        var buffer = [UInt8](repeating: 0, count: 10)
        _ = try buffer.withUnsafeMutableBytes { try reader.read(at: 5, into: $0) }
        #expect(Data(buffer) == data[5..<15])
        let error = #expect(throws: RendererError.self) { _ = try buffer.withUnsafeMutableBytes { try reader.read(at: 2 * Self.chunk + 5, into: $0) } }
        #expect(error?.code == .tampered && error?.message.contains("chunk 3") == true)
    }

    @Test func reorderedSwappedTruncatedAndExtendedEntriesFail() throws {
        let vault = try Vault()
        defer { vault.remove() }
        try vault.files.createFile(at: "a", contents: Self.contents(4 * Self.chunk))
        try vault.files.createFile(at: "b", contents: Self.contents(4 * Self.chunk))
        let slot = Self.chunk + 28
        let a = try vault.stored("a"), b = try vault.stored("b")
        func slotRange(_ i: Int) -> Range<Int> { (64 + i * slot)..<(64 + (i + 1) * slot) }
        var reordered = a
        reordered.replaceSubrange(slotRange(1), with: a[slotRange(2)])
        reordered.replaceSubrange(slotRange(2), with: a[slotRange(1)])
        var swapped = a
        swapped.replaceSubrange(slotRange(1), with: b[slotRange(1)])
        let cases: [(String, Data)] = [
            ("reordered", reordered), ("swapped with another entry's", swapped), ("cut short", a.prefix(a.count - 10)),
            ("missing its last chunk", a.prefix(64 + 3 * slot)), ("extended", a + Data(count: 28)),
        ]
        for (what, bytes) in cases {
            try vault.store(bytes, as: "bad")
            let error = #expect(throws: RendererError.self, "\(what)") { _ = try vault.files.openForReading("bad").readAll() }
            #expect(error?.code == .tampered, "\(what): \(error?.description ?? "")")
        }
        // A changed length in the header is caught by the header's own check.
        var longer = a
        longer[12] ^= 0x04
        try vault.store(longer, as: "bad")
        #expect((#expect(throws: RendererError.self) { _ = try vault.files.openForReading("bad") })?.code == .wrongKey)
    }

    /// Whole sealed entries moved about on disk: one copied over another, an older copy of an
    /// entry put back (after a write and after an update), one put in from outside. Each is
    /// whole and sealed with the vault's key, and each is `tampered` by the vault's index.
    @Test func swappedAndRolledBackEntriesAreTampered() throws {
        let vault = try Vault()
        defer { vault.remove() }
        try vault.files.createFile(at: "a", contents: Self.contents(3 * Self.chunk))
        try vault.files.createFile(at: "b", contents: Data("b's own contents".utf8))
        let (a1, b) = (try vault.stored("a"), try vault.stored("b"))
        try vault.files.replaceAtomically("a") { target in try Self.contents(100).withUnsafeBytes { try target.write($0) } }
        let a2 = try vault.stored("a")
        let handle = try vault.files.openForUpdating("a")
        try Data("updated".utf8).withUnsafeBytes { try handle.write($0, at: 10) }
        try handle.close()
        #expect(try vault.files.openForReading("a").readAll().dropFirst(10).prefix(7) == Data("updated".utf8))

        let copies: [(String, Data, String)] = [
            ("b copied over a", b, "a"), ("a's first version put back", a1, "a"), ("a before its update put back", a2, "a"),
            ("a put in under a new name", a1, "c"),
        ]
        for (what, bytes, name) in copies {
            let current = try? vault.stored(name)
            try vault.store(bytes, as: name)
            let error = #expect(throws: RendererError.self, "\(what)") { _ = try vault.files.openForReading(name).readAll() }
            #expect(error?.code == .tampered, "\(what): \(error?.description ?? "")")
            #expect((#expect(throws: RendererError.self) { try vault.files.verify(name) })?.code == .tampered)
            if let current { try vault.store(current, as: name) } else { try FileManager.default.removeItem(at: vault.directory.appendingPathComponent(name)) }
        }
        // Moves the vault makes itself stay readable; a deleted entry is forgotten.
        try vault.files.rename("b", to: "d")
        #expect(try vault.files.openForReading("d").readAll() == Data("b's own contents".utf8))
        try vault.files.delete("d")
        try vault.store(b, as: "d")
        #expect((#expect(throws: RendererError.self) { _ = try vault.files.openForReading("d") })?.code == .tampered)
        // A changed index is itself tampered, never trusted.
        var index = try vault.stored(".vault-index")
        index[index.count - 1] ^= 1
        try vault.store(index, as: ".vault-index")
        #expect((#expect(throws: RendererError.self) { _ = try vault.files.openForReading("a") })?.code == .tampered)
    }

    /// A vault written before indexes existed gets one when first opened writable, recording
    /// what it holds then; from then on its entries are checked.
    @Test func aVaultWithoutAnIndexGetsOne() throws {
        let vault = try Vault()
        defer { vault.remove() }
        try vault.files.createDirectory(at: "folder")
        try vault.files.createFile(at: "folder/a", contents: Self.contents(2000))
        try vault.files.createFile(at: "b", contents: Self.contents(10))
        let oldB = try vault.stored("b")
        try vault.files.createFile(at: "b", contents: Self.contents(20))
        for name in [".vault-index", ".vault-index.lock"] { try FileManager.default.removeItem(at: vault.directory.appendingPathComponent(name)) }
        // Read-only, without an index: read unchecked, and no index is written.
        let readOnly = try VaultFileSystem(root: vault.directory.path, key: vault.key, isWritable: false)
        #expect(try readOnly.openForReading("b").readAll() == Self.contents(20))
        #expect(!FileManager.default.fileExists(atPath: vault.directory.appendingPathComponent(".vault-index").path))
        let reopened = try VaultFileSystem(root: vault.directory.path, key: vault.key, chunkSize: Self.chunk)
        #expect(try reopened.openForReading("folder/a").readAll() == Self.contents(2000))
        try vault.store(oldB, as: "b")
        #expect((#expect(throws: RendererError.self) { _ = try reopened.openForReading("b") })?.code == .tampered)
    }

    /// `verify` reads every chunk: a changed chunk that a read of the header alone (the
    /// size, as `ls` shows it) would miss.
    @Test func verifyingReadsEveryChunk() throws {
        let vault = try Vault()
        defer { vault.remove() }
        try vault.files.createFile(at: "doc", contents: Self.contents(4 * Self.chunk))
        try vault.files.verify("doc")
        var stored = try vault.stored("doc")
        stored[64 + 2 * (Self.chunk + 28) + 40] ^= 0x01
        try vault.store(stored, as: "doc")
        #expect(try vault.files.attributes(of: "doc").size == 4 * Self.chunk)
        #expect((#expect(throws: RendererError.self) { try vault.files.verify("doc") })?.code == .tampered)
    }

    @Test func aWrongKeyAndAFileThatIsNotOursAreTypedErrors() throws {
        let vault = try Vault()
        defer { vault.remove() }
        try vault.files.createFile(at: "doc", contents: Self.contents(3000))
        let other = try VaultFileSystem(root: vault.directory.path, key: VaultKey.generate())
        let wrong = #expect(throws: RendererError.self) { _ = try other.openForReading("doc") }
        #expect(wrong?.code == .wrongKey)
        try vault.store(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf"))), as: "plain.pdf")
        #expect((#expect(throws: RendererError.self) { _ = try vault.files.openForReading("plain.pdf") })?.code == .unsupportedFormat)
        #expect((#expect(throws: RendererError.self) { _ = try vault.files.openForReading("../escape") })?.code == .invalidArgument)
        #expect((#expect(throws: RendererError.self) { try VaultKey(bytes: Data(count: 16)) })?.code == .invalidArgument)
    }

    @Test func updatesWriteReadExtendAndTruncateByPosition() throws {
        let vault = try Vault()
        defer { vault.remove() }
        var model = Self.contents(2 * Self.chunk + 100)
        try vault.files.createFile(at: "doc", contents: model)
        let handle = try vault.files.openForUpdating("doc")
        let patch = Data(repeating: 0xAB, count: 300)
        try patch.withUnsafeBytes { try handle.write($0, at: Self.chunk - 100) }
        model.replaceSubrange((Self.chunk - 100)..<(Self.chunk + 200), with: patch)
        try patch.withUnsafeBytes { try handle.write($0, at: 3 * Self.chunk) }  // past the end: a gap of zeros
        model.append(Data(count: 3 * Self.chunk - model.count))
        model.append(patch)
        var buffer = [UInt8](repeating: 0, count: 300)
        _ = try buffer.withUnsafeMutableBytes { try handle.read(at: Self.chunk - 100, into: $0) }
        #expect(Data(buffer) == patch)
        try handle.close()
        #expect(try vault.files.openForReading("doc").readAll() == model)
        let shorter = try vault.files.openForUpdating("doc")
        try shorter.truncate(to: Self.chunk + 10)
        try shorter.close()
        #expect(try vault.files.openForReading("doc").readAll() == model.prefix(Self.chunk + 10))
    }

    @Test func keyFilesAreReadAsHexOrRawBytes() throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = VaultKey.generate()
        let path = directory.appendingPathComponent("key").path
        try key.write(toFile: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let vault = try VaultFileSystem(root: directory.path, key: key)
        try vault.createFile(at: "x", contents: Data("secret".utf8))
        let reread = try VaultFileSystem(root: directory.path, key: VaultKey(contentsOfFile: path))
        #expect(try reread.openForReading("x").readAll() == Data("secret".utf8))
        #expect((#expect(throws: RendererError.self) { try key.write(toFile: path) })?.code == .ioFailure, "a key file is never replaced")
        try Data("not a key".utf8).write(to: directory.appendingPathComponent("bad"))
        let bad = #expect(throws: RendererError.self) { try VaultKey(contentsOfFile: directory.appendingPathComponent("bad").path) }
        #expect(bad?.code == .invalidArgument)
    }
}
