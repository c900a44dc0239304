import CSignatureCrypto
import Foundation
import RendererProvider

/// The C layer's calls on DER bytes, in one place: those that make bytes (freed here after
/// copying), and the parts of a CMS signature that signing, timestamping, verifying and the
/// validation data read.
enum CMSBytes {
    /// Runs a C call that makes bytes from OpenSSL's allocator and returns a copy of them;
    /// `engineFailure` (`limitExceeded` when memory ran out) with the C layer's words, naming
    /// `action`, when it fails.
    static func made(
        _ action: String, _ body: (inout UnsafeMutablePointer<UInt8>?, inout Int, UnsafeMutablePointer<CChar>, Int) -> sigcrypto_status
    ) throws -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { body(&bytes, &length, $0.baseAddress!, $0.count) }
        defer { sigcrypto_free(bytes) }
        guard status == SIGCRYPTO_OK, let bytes else {
            throw RendererError(status == SIGCRYPTO_NO_MEMORY ? .limitExceeded : .engineFailure, "cannot \(action): \(text(of: message))")
        }
        return Data(bytes: bytes, count: length)
    }

    /// The signature value of the DER CMS `cms`'s one signer: what a signature timestamp stamps.
    static func signatureValue(of cms: Data) throws -> Data {
        try made("read the signature value") { bytes, length, message, size in
            cms.withUnsafeBytes { sigcrypto_signature_value($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, &bytes, &length, message, size) }
        }
    }

    /// The timestamp token in the unsigned attributes of the DER CMS `cms`'s signer, if any.
    static func signatureTimestamp(in cms: Data) -> Data? {
        var token: UnsafeMutablePointer<UInt8>?, length = 0
        guard cms.withUnsafeBytes({ sigcrypto_signature_timestamp($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, &token, &length) }) != 0,
            let token
        else { return nil }
        defer { sigcrypto_free(token) }
        return Data(bytes: token, count: length)
    }

    /// The certificates the DER CMS `cms` (a signature or a timestamp token) carries; none
    /// when it cannot be read.
    static func certificates(in cms: Data) -> [Data] {
        let found = Locked<[Data]>([])
        _ = cms.withUnsafeBytes { bytes in
            withExtendedLifetime(found) {
                sigcrypto_certificates(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, { user, der, length in
                    let found = Unmanaged<Locked<[Data]>>.fromOpaque(user!).takeUnretainedValue()
                    found.withLock { $0.append(Data(bytes: der!, count: length)) }
                }, Unmanaged.passUnretained(found).toOpaque())
            }
        }
        return found.withLock { $0 }
    }

    /// The text of a C string the C layer wrote into `buffer` (an array, or a fixed array of a
    /// result struct, which Swift sees as a tuple).
    static func text<Buffer>(of buffer: Buffer) -> String {
        if let characters = buffer as? [CChar] { return String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return withUnsafeBytes(of: buffer) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
