import Foundation
import RendererProvider

/// An encrypted file system in a directory of the disk: every entry is sealed in chunks
/// with AES-GCM (`VaultFormat`) under a key the host supplies, so that documents never
/// touch the disk in plain text, reads decrypt only the chunks they touch, and any change
/// to an entry is found (`tampered`) rather than read: a changed, cut or reordered chunk,
/// and, through the vault's authenticated index (`VaultIndex`), an entry copied over
/// another or an older copy of an entry put back. What it cannot find is the whole vault
/// folder put back as it was, index and entries together.
///
/// A vault written before indexes existed gets one, recording the entries it holds then,
/// the first time it is opened writable; until then its entries are read unchecked.
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
    private let index: VaultIndex

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
        index = VaultIndex(root: self.root, key: key)
        if isWritable && !index.exists { try recordExistingEntries() }
    }

    /// Makes a new vault's folder at `root`, with the folders above it that are missing; the
    /// vault's own folder is readable, writable and searchable by its owner only. Does
    /// nothing when `root` exists. Throws `ioFailure` when the folder cannot be made.
    public static func makeFolder(at root: String) throws {
        guard !FileManager.default.fileExists(atPath: root) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw RendererError(.ioFailure, "cannot make the vault folder \(root): \((error as NSError).localizedDescription)")
        }
    }

    /// Records the entries a vault without an index holds now; when the key does not open
    /// one of them (a wrong key, most likely), records nothing, so that a wrong key never
    /// seals an index the right one cannot read.
    private func recordExistingEntries() throws {
        var found: [String: Data] = [:]
        var folders = [""]
        while let folder = folders.popLast() {
            for name in try contentsOfDirectory(at: folder) {
                let path = folder.isEmpty ? name : folder + "/" + name
                if try disk.attributes(of: location(path)).isDirectory {
                    folders.append(path)
                } else {
                    do {
                        found[path] = try VaultReader(file: disk.openForReading(location(path)), key: key, name: path).format.fileID
                    } catch let error as RendererError where error.code == .wrongKey {
                        return
                    } catch {
                        continue  // not a vault entry, or damaged: nothing to record
                    }
                }
            }
        }
        try index.update { $0 = found }
    }

    public var isSecure: Bool { true }

    /// The entry's attributes; a file's size is its contents', read from its checked header.
    public func attributes(of path: String) throws -> FileAttributes {
        let location = try self.location(path)
        let stored = try disk.attributes(of: location)
        guard !stored.isDirectory else { return stored }
        let reader = try checkedReader(path)
        return FileAttributes(size: reader.length, modificationDate: stored.modificationDate, isDirectory: false)
    }

    /// Reads every chunk of the entry at `path`, as nothing else does (reads decrypt only what
    /// they touch): throws `tampered` for the first that fails its check, or when the entry
    /// is not the one the vault's index records.
    public func verify(_ path: String) throws {
        let reader = try checkedReader(path)
        for chunk in 0..<reader.format.chunkCount { _ = try reader.chunk(chunk) }
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
        let entry = try self.entry(path)
        try index.update { records in records = records.filter { $0.key != entry && !$0.key.hasPrefix(entry + "/") } }
    }

    /// Renames the sealed entry in one step, replacing `destination`; the index records it
    /// under its new path.
    public func rename(_ source: String, to destination: String) throws {
        try requireWritable(destination)
        let (from, to) = (try entry(source), try entry(destination))
        try index.update { records in
            try disk.rename(location(source), to: location(destination))
            records[to] = records.removeValue(forKey: from)
        }
    }

    public func openForReading(_ path: String) throws -> any RandomAccessReader {
        try checkedReader(path)
    }

    public func openForWriting(_ path: String) throws -> any FileWriteHandle {
        try requireWritable(path)
        let location = try self.location(path)
        try disk.createFile(at: location, contents: Data())
        return VaultWriter(file: try disk.openForUpdating(location), key: key, chunkSize: chunkSize, written: try recorder(path))
    }

    public func openForUpdating(_ path: String) throws -> any FileUpdateHandle {
        try requireWritable(path)
        _ = try checkedReader(path)
        return try VaultUpdater(file: disk.openForUpdating(location(path)), key: key, name: path, written: try recorder(path))
    }

    /// A reader of the entry at `path`, once the index says it is the entry written there last.
    private func checkedReader(_ path: String) throws -> VaultReader {
        let reader = try VaultReader(file: disk.openForReading(location(path)), key: key, name: path)
        try index.check(entry(path), fileID: reader.format.fileID)
        return reader
    }

    /// What records a new sealing of the entry at `path` in the index.
    private func recorder(_ path: String) throws -> (Data) throws -> Void {
        let (index, entry) = (self.index, try self.entry(path))
        return { fileID in try index.update { $0[entry] = fileID } }
    }

    /// The entry's key in the index: its path's components joined by `/`.
    private func entry(_ path: String) throws -> String {
        _ = try location(path)
        return path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
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
