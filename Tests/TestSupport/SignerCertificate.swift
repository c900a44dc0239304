import Foundation

/// The signer's certificate of a signed fixture, taken from its signature by `openssl pkcs7`:
/// what a test trusts to make that signature valid.
public enum SignerCertificate {
    /// The DER signature in the first `/Contents <…>` of `pdf`, its zero padding left on.
    public static func signature(in pdf: Data) throws -> Data {
        guard let start = pdf.firstRange(of: Data("/Contents <".utf8))?.upperBound, let end = pdf[start...].firstIndex(of: UInt8(ascii: ">")) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let hex = Array(pdf[start..<end])
        return Data(stride(from: 0, to: hex.count - 1, by: 2).map { UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16) ?? 0 })
    }

    /// Writes the signer's certificate of the PDF at `path` into `folder` as `cert.pem` and
    /// returns its address.
    public static func extract(from path: String, into folder: URL) async throws -> URL {
        let der = folder.appendingPathComponent("signature.der"), pem = folder.appendingPathComponent("cert.pem")
        try signature(in: Data(contentsOf: URL(fileURLWithPath: path))).write(to: der)
        let printed = try await Tool.run("openssl", ["pkcs7", "-inform", "DER", "-in", der.path, "-print_certs", "-out", pem.path])
        guard printed.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: printed.stderr]) }
        return pem
    }
}
