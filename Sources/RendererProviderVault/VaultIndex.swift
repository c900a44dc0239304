import Crypto
import Foundation
import RendererProvider

/// The vault's authenticated record of which sealing of each entry is the current one.
///
/// Every write seals an entry under a new random file id (`VaultFormat`), and the index,
/// itself sealed with the vault's key, maps each entry's path to the id it holds now. An
/// entry whose header carries another id is `tampered`: a sealed entry copied over another,
/// or an older sealed copy of the same entry put back. What the index cannot tell is the
/// whole vault put back as it was, index and entries together.
///
/// The index is the file `.vault-index` in the vault's folder: `RPVINDX1`, then AES-GCM's
/// nonce, the sealed JSON (`{path: hex file id}`) and its tag. Writers of the vault, in any
/// process, take turns on it through the lock file `.vault-index.lock`.
struct VaultIndex {
    static let fileName = ".vault-index"
    static let magic = Data("RPVINDX1".utf8)

    let root: String
    let key: VaultKey

    private var path: String { root + "/" + Self.fileName }

    /// Whether the vault has an index yet (vaults written before it have none).
    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// The current file id of every recorded entry; empty when there is no index. Throws
    /// `tampered` when the index fails its check.
    func entries() throws -> [String: Data] {
        guard let sealed = FileManager.default.contents(atPath: path) else { return [:] }
        guard sealed.count >= Self.magic.count + 28, sealed.prefix(Self.magic.count) == Self.magic else {
            throw RendererError(.tampered, "the vault's index is not an index: it was changed or replaced")
        }
        let body = sealed.dropFirst(Self.magic.count)
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: body.prefix(12)), ciphertext: body.dropFirst(12).dropLast(16), tag: body.suffix(16))
            let json = try AES.GCM.open(box, using: key.key, authenticating: Self.magic)
            let hex = try JSONDecoder().decode([String: String].self, from: json)
            return hex.compactMapValues { Self.data(hex: $0) }
        } catch {
            throw RendererError(.tampered, "the vault's index failed its integrity check (or the key is not the vault's)")
        }
    }

    /// The id recorded for `entry`, nil when the index has none for it.
    func fileID(of entry: String) throws -> Data? {
        try entries()[entry]
    }

    /// Throws `tampered` unless `fileID` is the one recorded for `entry`. A vault without an
    /// index (written before indexes existed) checks nothing.
    func check(_ entry: String, fileID: Data) throws {
        guard exists else { return }
        guard let recorded = try self.fileID(of: entry) else {
            throw RendererError(.tampered, "\(entry) is not recorded in the vault's index: it was put there from outside the vault")
        }
        guard recorded == fileID else {
            throw RendererError(.tampered, "\(entry) is not the entry the vault last wrote there: it was swapped for another entry or rolled back")
        }
    }

    /// Changes the records with `change`, holding the index's lock against every other
    /// writer, and writes the index anew (atomically).
    func update(_ change: (inout [String: Data]) throws -> Void) throws {
        let lockPath = root + "/" + Self.fileName + ".lock"
        if !FileManager.default.fileExists(atPath: lockPath) { _ = FileManager.default.createFile(atPath: lockPath, contents: nil) }
        try FileWriteLock.holding(lockPath, displayName: "the vault's index") {
            var records = try entries()
            try change(&records)
            let json = try JSONEncoder().encode(records.mapValues { $0.map { String(format: "%02x", $0) }.joined() })
            let sealed = try AES.GCM.seal(json, using: key.key, nonce: AES.GCM.Nonce(), authenticating: Self.magic)
            var data = Self.magic
            data.append(contentsOf: sealed.nonce)
            data.append(sealed.ciphertext)
            data.append(sealed.tag)
            do {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw RendererError(.ioFailure, "cannot write the vault's index: \(error.localizedDescription)")
            }
        }
    }

    private static func data(hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return Data(bytes)
    }
}
