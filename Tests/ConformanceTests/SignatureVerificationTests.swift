import Foundation
import RendererProvider
import RendererSignatures
import Testing
import TestSupport

/// Signatures verified over the file's bytes with OpenSSL, on every backend (which only
/// lists the fields): signed.pdf and its variants made here (a byte changed, a later
/// revision that changes the page, one that adds an annotation, signatures remade with an
/// expired certificate and with one that may not sign), with `pdfsig` as the witness where it
/// tells the same thing.
@Suite("Signature verification, on every backend")
struct SignatureVerificationTests {
    typealias Code = SignatureVerification.Code

    /// The codes of a verification, in order.
    static func codes(_ verification: SignatureVerification) -> [Code] { verification.reasons.map(\.code) }

    /// A scratch folder with the signer's certificate of signed.pdf as `cert.pem`.
    static func folderWithSignerCertificate() async throws -> URL {
        let folder = try Tool.temporaryDirectory()
        _ = try await SignerCertificate.extract(from: Fixtures.path("signed.pdf"), into: folder)
        return folder
    }

    static func verify(_ path: String, backend: String, trust: TrustAnchors = .none) async throws -> [SignatureVerification] {
        try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).verifySignatures(trust: trust)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func anIntactSignatureIsValidOnlyWithItsAnchor(backend: String) async throws {
        let folder = try await Self.folderWithSignerCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let anchor = TrustAnchors(pem: try Data(contentsOf: folder.appendingPathComponent("cert.pem")))
        let untrusted = try await Self.verify(Fixtures.path("signed.pdf"), backend: backend)
        #expect(untrusted.map(\.field) == ["Approval", "Review.Witness"])
        #expect(untrusted.map(\.verdict) == [.unknown, .unknown])
        #expect(Self.codes(untrusted[0]) == [.intact, .noTrustAnchor, .coversWholeFile])
        #expect(Self.codes(untrusted[1]) == [.notSigned])
        let trusted = try await Self.verify(Fixtures.path("signed.pdf"), backend: backend, trust: anchor)
        #expect(trusted[0].verdict == .valid && Self.codes(trusted[0]) == [.intact, .trusted, .coversWholeFile])
        #expect(trusted[0].digestAlgorithm == "SHA256" && trusted[0].signingTime != nil)
        // pdfsig: the same signer, a valid signature, an issuer it does not trust.
        let pdfsig = try await Tool.run("pdfsig", [Fixtures.path("signed.pdf")]).text
        #expect(pdfsig.contains("Signer full Distinguished Name: \(trusted[0].signer ?? "-")"), "\(pdfsig)")
        #expect(pdfsig.contains("Signature is Valid") && pdfsig.contains("Certificate issuer isn't Trusted"))
        // pyHanko: valid and trusted with the anchor, untrusted without it.
        let pem = folder.appendingPathComponent("cert.pem").path
        let pyHanko = try await SigningIdentities.pyHanko(Fixtures.path("signed.pdf"), roots: [pem])
        #expect(pyHanko.map { $0.intact && $0.valid && $0.trusted && $0.coverage == "ENTIRE_FILE" } == [true], "\(pyHanko)")
        #expect(try await SigningIdentities.pyHanko(Fixtures.path("signed.pdf"), roots: []).map(\.trusted) == [false])
        // Another certificate as the only anchor: still unknown, never valid.
        let other = folder.appendingPathComponent("other.pem")
        try await Self.makeCertificate(at: other, key: folder.appendingPathComponent("other.key"))
        let stranger = try await Self.verify(Fixtures.path("signed.pdf"), backend: backend, trust: TrustAnchors(pem: try Data(contentsOf: other)))
        #expect(stranger[0].verdict == .unknown && Self.codes(stranger[0]).contains(.untrusted))
        // Anchors that hold no certificate are refused.
        #expect { try Fixtures.open("signed.pdf", backend: backend).verifySignatures(trust: TrustAnchors(pem: Data("not a certificate".utf8))) } throws: {
            ($0 as? RendererError)?.code == .invalidArgument
        }
    }

    /// One byte of the page's text changed inside the signed range: the digest no longer
    /// matches (pdfsig: "Digest Mismatch").
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aChangedByteBreaksTheSignature(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("signed.pdf")))
        let text = try #require(bytes.firstRange(of: Data("(A signed page)".utf8)))
        bytes[text.lowerBound + 3] = UInt8(ascii: "S")
        let tampered = folder.appendingPathComponent("tampered.pdf").path
        try bytes.write(to: URL(fileURLWithPath: tampered))
        let verdicts = try await Self.verify(tampered, backend: backend)
        #expect(verdicts[0].verdict == .invalid && Self.codes(verdicts[0]).first == .signatureMismatch)
        #expect(try await Tool.run("pdfsig", [tampered]).text.contains("Digest Mismatch"))
        #expect(try await SigningIdentities.pyHanko(tampered, roots: []).map(\.intact) == [false])
    }

    /// What a stranger can put in the file: ranges that run past its end or leave out more
    /// than the signature, a signature string that is not hexadecimal, hexadecimal that is
    /// not a signature. Each is invalid, with the reason, and nothing throws.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func malformedSignaturesAreInvalidNotErrors(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("signed.pdf")))
        let field = try #require(try Fixtures.open("signed.pdf", backend: backend).signatureFields().first)
        let (first, second) = (field.byteRanges[0], field.byteRanges[1])
        func ranges(_ numbers: [Int]) -> (Data) -> Data {
            { bytes in
                var bytes = bytes
                let old = Data(String(format: "0 %-10d %-10d %-10d", first.length, second.offset, second.length).utf8)
                let new = Data(String(format: "0 %-10d %-10d %-10d", numbers[0], numbers[1], numbers[2]).utf8)
                if let range = bytes.firstRange(of: old) { bytes.replaceSubrange(range, with: new) }
                return bytes
            }
        }
        func contents(_ text: String) -> (Data) -> Data {
            { bytes in
                var bytes = bytes
                let start = first.length + 1
                bytes.replaceSubrange(start..<(start + text.utf8.count), with: Data(text.utf8))
                return bytes
            }
        }
        let variants: [(String, (Data) -> Data, Code)] = [
            ("past the end", ranges([first.length, second.offset, second.length + 100]), .malformedRanges),
            ("a wider gap", ranges([first.length - 10, second.offset, second.length]), .malformedRanges),
            ("not hexadecimal", contents("ZZ"), .malformedRanges),
            ("not a signature", contents(String(repeating: "AB", count: 4096)), .malformedSignature),
        ]
        var checked = 0
        for (name, change, code) in variants {
            let path = folder.appendingPathComponent("variant.pdf").path
            let changed = change(original)
            #expect(changed != original, "\(name)")
            try changed.write(to: URL(fileURLWithPath: path))
            let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
            guard let field = try document.signatureFields().first, field.isSigned else { continue }
            let verdicts = try document.verifySignatures()
            #expect(verdicts[0].verdict == .invalid && Self.codes(verdicts[0]) == [code], "\(name): \(verdicts[0].reasons)")
            checked += 1
        }
        #expect(checked == variants.count)
    }

    /// signed-then-changed.pdf appends a revision that changes only the Info dictionary:
    /// allowed, and named. A revision that changes the page's content breaks the signature,
    /// which pdfsig does not see ("Not total document signed" only).
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func laterRevisionsAreJudgedByWhatTheyChange(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let metadataOnly = try await Self.verify(Fixtures.path("signed-then-changed.pdf"), backend: backend)
        #expect(Self.codes(metadataOnly[0]) == [.intact, .noTrustAnchor, .coversItsRevision, .allowedChanges])
        #expect(metadataOnly[0].reasons.last?.message.contains("metadata") == true)

        var bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("signed.pdf")))
        let previous = try #require(String(decoding: bytes.suffix(40), as: UTF8.self).components(separatedBy: "startxref").last?
            .trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: .newlines).first.flatMap { Int($0) })
        let content = "BT /F1 24 Tf 72 700 Td (A different page) Tj ET\n"
        let object = "9 0 obj\n<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream\nendobj\n"
        let offset = bytes.count
        bytes.append(Data(object.utf8))
        let xref = bytes.count
        bytes.append(Data(String(format: "xref\n9 1\n%010d 00000 n \ntrailer\n<< /Size 10 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n", offset, previous, xref).utf8))
        let changed = folder.appendingPathComponent("changed-page.pdf").path
        try bytes.write(to: URL(fileURLWithPath: changed))
        #expect(try await Tool.run("qpdf", ["--check", changed]).status == 0)
        let pageChanged = try await Self.verify(changed, backend: backend)
        #expect(pageChanged[0].verdict == .invalid && Self.codes(pageChanged[0]).last == .changedAfterSigning, "\(pageChanged[0].reasons)")
        #expect(try await Tool.run("pdfsig", [changed]).text.contains("Signature is Valid"))
        // pyHanko's difference analysis sees it: the later revision's changes are beyond what
        // a signature allows (OTHER), where the metadata-only one is not.
        #expect(try await SigningIdentities.pyHanko(changed, roots: []).map(\.modification) == ["OTHER"])
        #expect(try await SigningIdentities.pyHanko(Fixtures.path("signed-then-changed.pdf"), roots: []).map(\.modification) != ["OTHER"])
    }

    /// An annotation added by this library in an incremental save is an allowed change, on
    /// either engine's save.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func anAnnotationAddedLaterIsAllowed(backend: String) async throws {
        let folder = try await Self.folderWithSignerCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let annotated = folder.appendingPathComponent("annotated.pdf").path
        let document = try Fixtures.open("signed.pdf", backend: backend)
        _ = try await document.addAnnotation(Annotation(kind: .text, pageIndex: 0, rect: PageRect(x: 300, y: 100, width: 20, height: 20), contents: "Seen"))
        #expect { try document.verifySignatures() } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        try document.save(to: annotated, mode: .incremental)
        let anchor = TrustAnchors(pem: try Data(contentsOf: folder.appendingPathComponent("cert.pem")))
        for other in Fixtures.conformanceBackendIDs {
            let verdicts = try await Self.verify(annotated, backend: other, trust: anchor)
            #expect(verdicts[0].verdict == .valid, "\(other): \(verdicts[0].reasons)")
            #expect(Self.codes(verdicts[0]) == [.intact, .trusted, .coversItsRevision, .allowedChanges], "\(other)")
            #expect(verdicts[0].reasons.last?.message.contains("annotations") == true, "\(other)")
        }
    }

    /// certified.pdf's signature certifies the document with `/P 2`: both engines read it,
    /// a metadata change after it is permitted, an annotation is not.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aCertificationRulesWhatMayChangeAfterIt(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Fixtures.open("certified.pdf", backend: backend).signatureFields().map(\.certification) == [.formFilling, nil])
        #expect(try Fixtures.open("signed.pdf", backend: backend).signatureFields().map(\.certification) == [nil, nil])
        let annotated = folder.appendingPathComponent("annotated.pdf").path
        let document = try Fixtures.open("certified.pdf", backend: backend)
        _ = try await document.addAnnotation(Annotation(kind: .text, pageIndex: 0, rect: PageRect(x: 300, y: 100, width: 20, height: 20), contents: "Seen"))
        try document.save(to: annotated, mode: .incremental)
        let refused = try await Self.verify(annotated, backend: backend)
        #expect(refused[0].verdict == .invalid && Self.codes(refused[0]).last == .changedAfterSigning, "\(refused[0].reasons)")
        #expect(refused[0].reasons.last?.message.contains("annotations") == true)
        #expect(try await SigningIdentities.pyHanko(annotated, roots: []).map(\.docmdp_ok) == [false])
        let retitled = folder.appendingPathComponent("retitled.pdf").path
        let other = try Fixtures.open("certified.pdf", backend: "mupdf")
        var metadata = try other.info().metadata
        metadata.title = "Retitled after certifying"
        try other.setMetadata(metadata)
        try other.save(to: retitled, mode: .incremental)
        let permitted = try await Self.verify(retitled, backend: backend)
        #expect(Self.codes(permitted[0]) == [.intact, .noTrustAnchor, .coversItsRevision, .allowedChanges], "\(permitted[0].reasons)")
        #expect(permitted[0].reasons.last?.message.contains("certification") == true)
    }

    /// signed.pdf signed again over the same bytes by a certificate that had expired when
    /// it signed, and by one whose key usage does not allow signing: each is invalid, though
    /// the signature itself is intact.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aCertificateThatMayNotSignMakesItInvalid(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(String, [String], Code)] = [
            ("expired", ["--expired"], .certificateNotCurrent),
            ("encipher-only", ["--key-usage", "keyEncipherment"], .keyUsage),
        ]
        for (name, options, code) in cases {
            let key = folder.appendingPathComponent("\(name).key"), certificate = folder.appendingPathComponent("\(name).pem")
            try await Self.makeCertificate(at: certificate, key: key, options: options)
            let resigned = folder.appendingPathComponent("\(name).pdf").path
            try await Self.resign(Fixtures.path("signed.pdf"), to: resigned, certificate: certificate, key: key)
            let anchor = TrustAnchors(pem: try Data(contentsOf: certificate))
            let verdicts = try await Self.verify(resigned, backend: backend, trust: anchor)
            #expect(verdicts[0].verdict == .invalid && Self.codes(verdicts[0]).contains(code), "\(name): \(verdicts[0].reasons)")
            #expect(Self.codes(verdicts[0]).first == .intact, "\(name)")
        }
    }

    /// A signature whose field locks the fields `name` and `person.first` (pyHanko's /Lock
    /// /Include, `sign-with-lock.py`): filling another field later is allowed, filling a
    /// locked one breaks it; the lock is read on the field. pyHanko finds the signature
    /// intact in both files, but is no witness of what changed: its difference analysis
    /// calls any update another writer makes "OTHER".
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aFieldLockRulesWhichFieldsMayChange(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let locked = identities.path("locked.pdf")
        let made = try await Tool.run(
            "python3", [Fixtures.path("Signing/sign-with-lock.py"), identities.folder.path, Fixtures.path("forms.pdf"), locked, "name", "person.first"])
        try #require(made.status == 0, "\(made.stderr)")
        let anchor = TrustAnchors(pem: try Data(contentsOf: URL(fileURLWithPath: identities.path("ca.pem"))))
        let field = try #require(try await Fixtures.conformanceRegistry.open(.file(locked), renderer: .id(backend)).signatureFields().first { $0.name == "Locking" })
        #expect(field.lock == .only(["name", "person.first"]) && field.lock?.locks("person.first") == true && field.lock?.locks("address") == false)

        for (name, value, allowed) in [("address", "1 Analytical Way", true), ("person.first", "Augusta", false)] {
            let filled = identities.path("filled-\(name).pdf")
            let document = try await Fixtures.conformanceRegistry.open(.file(locked), renderer: .id(backend))
            try document.fillForm([name: [value]])
            try document.save(to: filled, mode: .incremental)
            let verdict = try #require(try await Self.verify(filled, backend: backend, trust: anchor).first { $0.field == "Locking" })
            if allowed {
                #expect(verdict.verdict == .valid && Self.codes(verdict).last == .allowedChanges, "\(name): \(verdict.reasons)")
            } else {
                #expect(verdict.verdict == .invalid && Self.codes(verdict).last == .changedAfterSigning, "\(name): \(verdict.reasons)")
                #expect(verdict.reasons.last?.message.contains("person.first") == true)
            }
            #expect(try await identities.pyHanko(filled).first { $0.field == "Locking" }?.intact == true)
        }
    }

    /// The legacy encoding adbe.pkcs7.sha1 (the CMS signature holds the signed bytes' SHA-1
    /// digest; `sign-legacy-sha1.py`): valid with its anchor, and a changed byte makes it
    /// invalid, as pdfsig says (pyHanko does not read this encoding).
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func theLegacySHA1EncodingIsChecked(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let legacy = identities.path("legacy.pdf")
        let made = try await Tool.run("python3", [Fixtures.path("Signing/sign-legacy-sha1.py"), identities.folder.path, Fixtures.path("forms.pdf"), legacy])
        try #require(made.status == 0, "\(made.stderr)")
        let anchor = TrustAnchors(pem: try Data(contentsOf: URL(fileURLWithPath: identities.path("ca.pem"))))
        let verdicts = try await Self.verify(legacy, backend: backend, trust: anchor)
        #expect(verdicts.map(\.field) == ["Legacy"] && verdicts.first?.verdict == .valid, "\(verdicts.map(\.reasons))")
        #expect(verdicts.first.map(Self.codes) == [.intact, .trusted, .coversWholeFile])
        #expect(try await Tool.run("pdfsig", [legacy]).text.contains("Signature is Valid"))

        var bytes = try Data(contentsOf: URL(fileURLWithPath: legacy))
        let changed = try #require(bytes.firstRange(of: Data("/Helv 0 Tf".utf8))).lowerBound + 6
        bytes[changed] = UInt8(ascii: "1")
        let tampered = identities.path("legacy-changed.pdf")
        try bytes.write(to: URL(fileURLWithPath: tampered))
        let broken = try await Self.verify(tampered, backend: backend, trust: anchor)
        #expect(broken.first?.verdict == .invalid && broken.first.map(Self.codes)?.first == .signatureMismatch, "\(broken.map(\.reasons))")
        #expect(broken.first?.reasons.first?.message.contains("SHA-1") == true)
        #expect(try await Tool.run("pdfsig", [tampered]).text.contains("Digest Mismatch"))
    }

    /// A self-signed certificate and its key, made with Python's cryptography package:
    /// valid from yesterday for ten years, or (`--expired`) through 2021 only; with
    /// `--key-usage NAME`, a key usage extension of that one bit.
    static func makeCertificate(at certificate: URL, key: URL, options: [String] = []) async throws {
        let script = """
            import sys, datetime
            from cryptography import x509
            from cryptography.x509.oid import NameOID
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import rsa
            cert_path, key_path, *options = sys.argv[1:]
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test Signer " + cert_path.rsplit("/", 1)[-1])])
            now = datetime.datetime.now(datetime.timezone.utc)
            start, end = now - datetime.timedelta(days=1), now + datetime.timedelta(days=3650)
            if "--expired" in options:
                start, end = datetime.datetime(2020, 1, 1), datetime.datetime(2021, 1, 1)
            builder = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                       .serial_number(x509.random_serial_number()).not_valid_before(start).not_valid_after(end)
                       .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True))
            if "--key-usage" in options:
                bits = dict(digital_signature=False, content_commitment=False, key_encipherment=False, data_encipherment=False,
                            key_agreement=False, key_cert_sign=True, crl_sign=False, encipher_only=False, decipher_only=False)
                bits[{"keyEncipherment": "key_encipherment"}[options[options.index("--key-usage") + 1]]] = True
                builder = builder.add_extension(x509.KeyUsage(**bits), critical=True)
            certificate = builder.sign(key, hashes.SHA256())
            open(cert_path, "wb").write(certificate.public_bytes(serialization.Encoding.PEM))
            open(key_path, "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
            """
        let made = try await Tool.run("python3", ["-c", script, certificate.path, key.path] + options)
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// `source` with its first signature made again over the same byte ranges by
    /// `certificate` and `key` (`openssl cms -sign`, SHA-256, detached), written to `path`.
    static func resign(_ source: String, to path: String, certificate: URL, key: URL) async throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let field = try #require(try Fixtures.open("signed.pdf", backend: "mupdf").signatureFields().first)
        let (first, second) = (field.byteRanges[0], field.byteRanges[1])
        var signed = bytes[first.offset..<(first.offset + first.length)]
        signed.append(bytes[second.offset..<(second.offset + second.length)])
        let made = try await Tool.run(
            "openssl", ["cms", "-sign", "-binary", "-outform", "DER", "-md", "sha256", "-signer", certificate.path, "-inkey", key.path], input: Data(signed))
        try #require(made.status == 0, "\(made.stderr)")
        let hex = Data(made.stdout.map { String(format: "%02X", $0) }.joined().utf8)
        let holder = first.length + 1..<(second.offset - 1)
        try #require(hex.count <= holder.count)
        bytes.replaceSubrange(holder, with: hex + Data(repeating: UInt8(ascii: "0"), count: holder.count - hex.count))
        try bytes.write(to: URL(fileURLWithPath: path))
    }
}
