import Foundation

/// A scratch folder of signing identities made by `Tests/Fixtures/Signing/make-identities.py`
/// (a test CA and signers issued by it; see the script for what each is), and pyHanko's
/// verdicts on signed files, the independent witness the signing tests ask.
public struct SigningIdentities: Sendable {
    /// The folder; ``remove()`` deletes it.
    public let folder: URL
    /// Every identity's password.
    public static let password = "correct horse"

    /// The identities in a new folder of the caller's: copies of the ones the script made
    /// once for this test run (its twelve RSA keys take it about a second).
    public static func make() async throws -> SigningIdentities {
        let made = try await madeOnce.value
        let folder = try Tool.temporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: made.path) {
            try FileManager.default.copyItem(at: made.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return SigningIdentities(folder: folder)
    }

    /// The folder the script wrote this test run's identities into, started at the first
    /// ``make()``; it is left in the system's temporary folder when the run ends.
    private static let madeOnce = Task<URL, any Error> {
        let folder = try Tool.temporaryDirectory()
        let made = try await Tool.run("python3", [Fixtures.path("Signing/make-identities.py"), folder.path])
        guard made.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: made.stderr]) }
        return folder
    }

    /// The path of a file in the folder: one the script made (`signer.p12`, `ca.pem`,
    /// `password.txt`…) or one a test writes.
    public func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    public func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The document security store of the PDF at `pdf` as pyHanko reads it: its
    /// certificates' subjects (sorted, `Organization: …, Common Name: …`; each certificate
    /// once), its CRLs' issuers, how many OCSP responses it holds, and how many entries its
    /// `Certs`, `CRLs` and `OCSPs` arrays hold as written; nil when there is no store.
    public static func pyHankoSecurityStore(_ pdf: String) async throws -> (certificates: [String], crls: [String], ocsps: Int, entries: [String: Int])? {
        let run = try await Tool.run("python3", [Fixtures.path("Signing/read-dss-with-pyhanko.py"), pdf])
        guard run.status == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: run.stderr]) }
        let object = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any] ?? [:]
        guard let certificates = object["certificates"] as? [String] else { return nil }
        return (certificates, object["crls"] as? [String] ?? [], object["ocsps"] as? Int ?? 0, object["entries"] as? [String: Int] ?? [:])
    }

    /// Starts the test time-stamping authority (`tsa-server.py`, OpenSSL's `ts -reply` with
    /// `tsa.pem`) on a free loopback port and returns it with its address; it runs until the
    /// process value goes. With `signer` (an identity such as `signer.p12`), a careless
    /// authority that signs its tokens with that identity's certificate instead.
    public func startTimestampAuthority(signer: String? = nil) async throws -> (process: RunningProcess, url: URL) {
        let careless = signer.map { ["--signer", $0] } ?? []
        let process = try RunningProcess("/usr/bin/env", ["python3", Fixtures.path("Signing/tsa-server.py"), folder.path] + careless)
        guard await process.waitForOutput(timeout: .seconds(60), until: { $0.contains("\n") }),
            let port = process.output.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the TSA did not start: \(process.errorOutput)"]) }
        return (process, URL(string: "http://127.0.0.1:\(port)/")!)
    }

    /// One signature as pyHanko validates it, with the test CA as its only trust root.
    public struct PyHankoVerdict: Decodable, Sendable {
        public var field: String
        /// `signature`, or `timestamp` for a document timestamp.
        public var kind: String
        /// For a signature with a timestamp of its own: whether it is intact and valid, and trusted.
        public var timestamp_valid: Bool?
        public var timestamp_trusted: Bool?
        public var intact: Bool
        public var valid: Bool
        public var trusted: Bool
        public var coverage: String?
        public var modification: String?
        public var docmdp_ok: Bool?
        public var subfilter: String?
        /// With revocation lists given: whether pyHanko finds the signer revoked.
        public var revoked: Bool?
    }

    /// pyHanko's verdicts on every signature of the PDF at `pdf`, with the test CA as the
    /// trust root.
    public func pyHanko(_ pdf: String) async throws -> [PyHankoVerdict] {
        try await Self.pyHanko(pdf, roots: [path("ca.pem")])
    }

    /// pyHanko's verdicts on every signature of the PDF at `pdf`, with the PEM certificates
    /// at `roots` as its trust roots, and the DER revocation lists at `revocationLists`,
    /// which must then cover the signer's certificate.
    public static func pyHanko(_ pdf: String, roots: [String], revocationLists: [String] = []) async throws -> [PyHankoVerdict] {
        let lists = revocationLists.flatMap { ["--crl", $0] }
        let run = try await Tool.run("python3", [Fixtures.path("Signing/validate-with-pyhanko.py"), pdf] + roots + lists)
        guard run.status == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: run.stderr]) }
        return try JSONDecoder().decode([PyHankoVerdict].self, from: run.stdout)
    }
}
