import Foundation
import RendererProvider

/// An encrypted file system in a directory of the disk: every entry is sealed in chunks
/// with AES-GCM (`VaultFormat`) under a key the host supplies, so that documents never
/// touch the disk in plain text, reads decrypt only the chunks they touch, and any change
/// to an entry is found (`tampered`) rather than read.
///
/// Paths are relative to the vault's directory, `/`-separated, without `..`; entry and
/// directory names are stored as they are (they are not secret). Both engines read
/// documents from a vault through `FileSystem/documentStream(_:)`, and saves write into
/// it through `FileSystem/replaceAtomically(_:_:)`.
public struct VaultFileSystem: FileSystem {
    /// The directory that holds the vault.
    public let root: String
    private let key: VaultKey
    private let chunkSize: Int
    public let isWritable: Bool
    private let disk = LocalFileSystem()

    /// A vault in the existing directory `root`, opened with `key`. `chunkSize` (from 1 KiB
    /// to 16 MiB) applies to the entries it writes; it reads entries of any chunk size.
    public init(root: String, key: VaultKey, isWritable: Bool = true, chunkSize: Int = 64 * 1024) throws {
        guard (1024...(1 << 24)).contains(chunkSize) else {
            throw RendererError(.invalidArgument, "a vault's chunks are from 1 KiB to 16 MiB, not \(chunkSize) bytes")
        }
        let attributes = try LocalFileSystem().attributes(of: root)
        guard attributes.isDirectory else { throw RendererError(.invalidArgument, "\(root) is not a directory") }
        self.root = URL(fileURLWithPath: root).standardizedFileURL.path
        self.key = key
        self.chunkSize = chunkSize
        self.isWritable = isWritable
    }

    public var isSecure: Bool { true }

    /// The entry's attributes; a file's size is its contents', read from its checked header.
    public func attributes(of path: String) throws -> FileAttributes {
        let location = try self.location(path)
        let stored = try disk.attributes(of: location)
        guard !stored.isDirectory else { return stored }
        let reader = try VaultReader(file: disk.openForReading(location), key: key, name: path)
        return FileAttributes(size: reader.length, modificationDate: stored.modificationDate, isDirectory: false)
    }

    /// The names in the directory, without the temporary entries of saves under way.
    public func contentsOfDirectory(at path: String) throws -> [String] {
        try disk.contentsOfDirectory(at: location(path)).filter { !$0.hasPrefix(".") }
    }

    /// True when the vault has an entry at `path`.
    public func exists(_ path: String) -> Bool {
        (try? location(path)).map(disk.exists) ?? false
    }

    public func createDirectory(at path: String) throws {
        try requireWritable(path)
        try disk.createDirectory(at: location(path))
    }

    // createFile and copy are FileSystem's own, through openForWriting: a copy is sealed anew.

    public func delete(_ path: String) throws {
        try requireWritable(path)
        try disk.delete(location(path))
    }

    /// Renames the sealed entry in one step, replacing `destination`.
    public func rename(_ source: String, to destination: String) throws {
        try requireWritable(destination)
        try disk.rename(location(source), to: location(destination))
    }

    public func openForReading(_ path: String) throws -> any RandomAccessReader {
        try VaultReader(file: disk.openForReading(location(path)), key: key, name: path)
    }

    public func openForWriting(_ path: String) throws -> any FileWriteHandle {
        try requireWritable(path)
        let location = try self.location(path)
        try disk.createFile(at: location, contents: Data())
        return VaultWriter(file: try disk.openForUpdating(location), key: key, chunkSize: chunkSize)
    }

    public func openForUpdating(_ path: String) throws -> any FileUpdateHandle {
        try requireWritable(path)
        return try VaultUpdater(file: disk.openForUpdating(location(path)), key: key, name: path)
    }

    /// Where `path` is on disk; `invalidArgument` for a path that would leave the vault.
    private func location(_ path: String) throws -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.contains(where: { $0 == ".." || $0 == "." }) else {
            throw RendererError(.invalidArgument, "\(path) is not a path inside the vault")
        }
        return parts.isEmpty ? root : root + "/" + parts.joined(separator: "/")
    }

    private func requireWritable(_ path: String) throws {
        guard isWritable else { throw RendererError(.notPermitted, "the vault is read-only; \(path) cannot be written") }
    }
}
