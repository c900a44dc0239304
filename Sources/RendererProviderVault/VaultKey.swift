import Crypto
import Foundation
import RendererProvider

/// The 256-bit key of a ``VaultFileSystem``. The host keeps it (a keychain, a key file, a
/// key server); the vault never stores it.
public struct VaultKey: Sendable {
    /// The key's bytes; swift-crypto's `SymmetricKey` (3.x) is not `Sendable`, so one is made
    /// from them where it is used.
    private let bytes: Data

    var key: SymmetricKey { SymmetricKey(data: bytes) }

    /// A key of exactly 32 bytes; `invalidArgument` otherwise.
    public init(bytes: Data) throws {
        guard bytes.count == 32 else {
            throw RendererError(.invalidArgument, "a vault key is 32 bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// A new random key.
    public static func generate() -> VaultKey {
        // A freshly generated 256-bit key is always valid.
        try! VaultKey(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }

    /// The key in a key file: 64 hexadecimal digits (surrounding white space ignored) or
    /// 32 raw bytes. `fileNotFound`, `ioFailure` or `invalidArgument` otherwise; the key's
    /// bytes are never part of a message.
    public init(contentsOfFile path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FileManager.default.fileExists(atPath: path)
                ? RendererError(.ioFailure, "the key file \(path) cannot be read")
                : RendererError(.fileNotFound, "\(path): no such key file")
        }
        if data.count == 32 {
            try self.init(bytes: data)
            return
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count == 64, let bytes = Self.hexBytes(text) else {
            throw RendererError(.invalidArgument, "the key file \(path) holds neither 64 hexadecimal digits nor 32 bytes")
        }
        try self.init(bytes: bytes)
    }

    /// Writes the key as 64 hexadecimal digits to a new file that only its owner can read;
    /// an existing file is not replaced (`ioFailure`).
    public func write(toFile path: String) throws {
        let hex = bytes.map { String(format: "%02x", $0) }.joined() + "\n"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw RendererError(.ioFailure, "the key file \(path) cannot be created: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let written = hex.utf8CString.withUnsafeBufferPointer { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
        guard written == hex.utf8.count else { throw RendererError(.ioFailure, "the key file \(path) could not be written") }
    }

    private static func hexBytes(_ text: String) -> Data? {
        var bytes = Data()
        var digits = text.makeIterator()
        while let high = digits.next(), let low = digits.next() {
            guard let byte = UInt8(String([high, low]), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
