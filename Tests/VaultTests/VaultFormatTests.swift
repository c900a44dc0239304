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
