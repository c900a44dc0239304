import Foundation
import RendererProvider
import RendererSignatures
import Testing
import TestSupport

/// Documents signed on every backend with identities a test CA issued
/// (`Tests/Fixtures/Signing/make-identities.py`), each signed file checked by three
/// independent witnesses, `pdfsig` (Poppler's NSS verifier), pyHanko's validator (with the
/// test CA as its trust root) and `qpdf --check`, and by this project's verifier.
@Suite("Signing, on every backend")
struct SigningTests {
    /// The other backend, which signs a second time or reads what one signed.
    static func other(than backend: String) -> String {
        Fixtures.conformanceBackendIDs.first { $0 != backend }!
    }

    static func identity(_ identities: SigningIdentities, _ name: String = "signer.p12") throws -> SigningIdentity {
        try SigningIdentity(pkcs12File: identities.path(name), password: SigningIdentities.password)
    }

    /// Signs the PDF at `path` with `backend`, writes the result into the folder as `output`
    /// and returns its path.
    static func sign(
        _ path: String, backend: String, as name: String = "signer.p12", options: SigningOptions = SigningOptions(), into identities: SigningIdentities,
        output: String
    ) throws -> String {
        let document = try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        let signed = try document.sign(with: try identity(identities, name), options: options)
        let written = identities.path(output)
        try signed.write(to: URL(fileURLWithPath: written))
        return written
    }

    /// forms.pdf signed by `backend` with a timestamp from the test authority (PAdES B-T,
    /// `b-t.pdf` in the identities' folder), and that authority, still running for the caller
    /// to use and stop.
    static func timestampedSignature(backend: String, identities: SigningIdentities) async throws -> (RunningProcess, TimestampAuthority, String) {
        let (server, url) = try await identities.startTimestampAuthority()
        let authority = try TimestampAuthority(url: url)
        let signed = try sign(Fixtures.path("forms.pdf"), backend: backend, options: SigningOptions(timestampAuthority: authority), into: identities, output: "b-t.pdf")
        return (server, authority, signed)
    }

    static func verdicts(_ path: String, backend: String, identities: SigningIdentities) throws -> [SignatureVerification] {
        try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).verifySignatures(trust: TrustAnchors(pem: try Data(contentsOf: URL(fileURLWithPath: identities.path("ca.pem")))))
    }

    /// `qpdf --check` finds nothing wrong.
    static func expectQPDFAccepts(_ path: String) async throws {
        let check = try await Tool.run("qpdf", ["--check", path])
        #expect(check.status == 0 && check.text.contains("No syntax or stream encoding errors"), "\(check.text)\(check.stderr)")
    }

    /// The default signature: PAdES (ETSI.CAdES.detached) with SHA-256, invisible, in a new
    /// field on the first page, appended to the original bytes, which stay as they were.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aNewSignatureIsValidForEveryWitness(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let date = Date()
        let signed = try Self.sign(Fixtures.path("forms.pdf"), backend: backend, options: SigningOptions(reason: "Approved", location: "Lab", date: date), into: identities, output: "signed.pdf")
        let original = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("forms.pdf")))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: signed))
        #expect(bytes.count > original.count && bytes.prefix(original.count) == original)

        for reader in Fixtures.conformanceBackendIDs {
            let verdicts = try Self.verdicts(signed, backend: reader, identities: identities)
            #expect(verdicts.map(\.field) == ["Signature1"])
            #expect(verdicts.first?.verdict == .valid && verdicts.first?.reasons.map(\.code) == [.intact, .trusted, .coversWholeFile])
            #expect(verdicts.first?.signer == "O=Renderer Provider Tests,CN=Ada Signer" && verdicts.first?.digestAlgorithm == "SHA256")
        }
        let field = try #require(try await Fixtures.conformanceRegistry.open(.file(signed), renderer: .id(Self.other(than: backend))).signatureFields().first)
        #expect(field.signerName == "Ada Signer" && field.reason == "Approved" && field.location == "Lab" && field.subFilter == "ETSI.CAdES.detached")
        #expect(field.coversWholeFile && field.pageIndex == 0)
        #expect(abs((field.signingTime ?? .distantPast).timeIntervalSince(date)) < 1)

        let pdfsig = try await Tool.run("pdfsig", [signed]).text
        #expect(pdfsig.contains("Signature is Valid") && pdfsig.contains("ETSI.CAdES.detached") && pdfsig.contains("Total document signed"), "\(pdfsig)")
        #expect(pdfsig.contains("SHA-256"))
        let pyHanko = try await identities.pyHanko(signed)
        #expect(pyHanko.count == 1)
        #expect(pyHanko.first.map { $0.intact && $0.valid && $0.trusted && $0.coverage == "ENTIRE_FILE" } == true, "\(pyHanko)")
        try await Self.expectQPDFAccepts(signed)
    }

    /// A visible signature in a new field, PKCS#7 with SHA-384 and an EC key: both text
    /// extractors read the signer's name and the reason from the drawn appearance.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aVisibleSignatureShowsTheSigner(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let options = SigningOptions(
            placement: .newField(name: "Approval", pageIndex: 0, area: PageRect(x: 300, y: 650, width: 220, height: 60)), isVisible: true,
            encoding: .pkcs7, digest: .sha384, reason: "Checked by (the) lab")
        let signed = try Self.sign(Fixtures.path("forms.pdf"), backend: backend, as: "ec-signer.p12", options: options, into: identities, output: "visible.pdf")
        for text in [try await Tool.run("pdftotext", [signed, "-"]).text, try await Tool.run("mutool", ["draw", "-q", "-F", "txt", signed, "1"]).text] {
            #expect(text.contains("Digitally signed by Eve Signer") && text.contains("Reason: Checked by (the) lab"), "\(text)")
        }
        let pdfsig = try await Tool.run("pdfsig", [signed]).text
        #expect(pdfsig.contains("Signature Field Name: Approval") && pdfsig.contains("adbe.pkcs7.detached") && pdfsig.contains("SHA-384"), "\(pdfsig)")
        #expect(pdfsig.contains("Signature is Valid"))
        let pyHanko = try await identities.pyHanko(signed)
        #expect(pyHanko.first.map { $0.field == "Approval" && $0.valid && $0.trusted } == true, "\(pyHanko)")
        let verdict = try Self.verdicts(signed, backend: Self.other(than: backend), identities: identities)
        #expect(verdict.first?.verdict == .valid && verdict.first?.digestAlgorithm == "SHA384")
        try await Self.expectQPDFAccepts(signed)
    }

    /// A visible signature whose signer's name and reason need more than WinAnsiEncoding:
    /// drawn in an embedded subset of DejaVu Sans (a Type 0 font with a ToUnicode map), so
    /// that both text extractors read them back as written; every witness accepts the file.
    /// A name in WinAnsiEncoding keeps Helvetica, embedding nothing.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aVisibleSignatureShowsNamesBeyondLatin1(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let options = SigningOptions(
            placement: .newField(name: "Approval", pageIndex: 0, area: PageRect(x: 300, y: 650, width: 260, height: 60)), isVisible: true,
            reason: "Zatwierdzono – Ελέγχθηκε")
        let signed = try Self.sign(Fixtures.path("forms.pdf"), backend: backend, as: "unicode.p12", options: options, into: identities, output: "unicode.pdf")
        for text in [try await Tool.run("pdftotext", [signed, "-"]).text, try await Tool.run("mutool", ["draw", "-q", "-F", "txt", signed, "1"]).text] {
            #expect(text.contains("Digitally signed by Łukasz Żółć Ψ Жанна") && text.contains("Reason: Zatwierdzono – Ελέγχθηκε"), "\(text)")
        }
        let fonts = try await Tool.run("pdffonts", [signed]).text
        #expect(fonts.contains("+DejaVuSans") && fonts.contains("CID TrueType"), "\(fonts)")
        #expect(try await Tool.run("pdfsig", [signed]).text.contains("Signature is Valid"))
        #expect(try await identities.pyHanko(signed).map { $0.valid && $0.trusted } == [true])
        #expect(try Self.verdicts(signed, backend: Self.other(than: backend), identities: identities).map(\.verdict) == [.valid])
        try await Self.expectQPDFAccepts(signed)

        let latin = try Self.sign(
            Fixtures.path("forms.pdf"), backend: backend, options: SigningOptions(placement: options.placement, isVisible: true, reason: "Geprüft"),
            into: identities, output: "latin.pdf")
        let latinFonts = try await Tool.run("pdffonts", [latin]).text
        #expect(!latinFonts.contains("DejaVu"), "\(latinFonts)")
    }

    /// signed.pdf's unsigned field Review.Witness signed by one backend, then a new field by
    /// the other: the fixture's signature and the first new one still cover their revisions
    /// and are intact, for every witness; each later revision only adds a signature.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func laterSignaturesKeepEarlierOnesValid(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let first = try Self.sign(
            Fixtures.path("signed.pdf"), backend: backend, options: SigningOptions(placement: .field("Review.Witness"), isVisible: true), into: identities,
            output: "first.pdf")
        let second = try Self.sign(first, backend: Self.other(than: backend), as: "ec-signer.p12", into: identities, output: "second.pdf")

        let verdicts = try Self.verdicts(second, backend: backend, identities: identities)
        #expect(verdicts.map(\.field) == ["Approval", "Review.Witness", "Signature1"])
        // The fixture's signer is not issued by the test CA: intact, its signer unknown.
        #expect(verdicts[0].verdict == .unknown && verdicts[0].reasons.map(\.code) == [.intact, .untrusted, .coversItsRevision, .allowedChanges])
        #expect(verdicts[1].verdict == .valid && verdicts[1].reasons.map(\.code) == [.intact, .trusted, .coversItsRevision, .allowedChanges])
        #expect(verdicts[2].verdict == .valid && verdicts[2].reasons.map(\.code) == [.intact, .trusted, .coversWholeFile])

        let pdfsig = try await Tool.run("pdfsig", [second]).text
        #expect(pdfsig.components(separatedBy: "Signature is Valid").count == 4, "\(pdfsig)")
        let pyHanko = try await identities.pyHanko(second)
        #expect(pyHanko.map(\.field) == ["Approval", "Review.Witness", "Signature1"])
        #expect(pyHanko.allSatisfy { $0.intact && $0.valid }, "\(pyHanko)")
        #expect(pyHanko.map(\.trusted) == [false, true, true])
        #expect(pyHanko.map(\.coverage) == ["ENTIRE_REVISION", "ENTIRE_REVISION", "ENTIRE_FILE"])
        #expect(pyHanko.prefix(2).allSatisfy { $0.modification == "FORM_FILLING" })
        try await Self.expectQPDFAccepts(second)
    }

    /// A certification with form filling allowed: the catalog's /Perms /DocMDP names it, a
    /// later approval signature keeps it valid (pyHanko: DocMDP respected), and a second
    /// certification is refused. A certification that allows nothing refuses any signature.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func certificationRulesLaterSignatures(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let certified = try Self.sign(Fixtures.path("forms.pdf"), backend: backend, options: SigningOptions(certification: .formFilling), into: identities, output: "certified.pdf")
        let fields = try await Fixtures.conformanceRegistry.open(.file(certified), renderer: .id(Self.other(than: backend))).signatureFields()
        #expect(fields.map(\.certification) == [.formFilling])

        let approved = try Self.sign(certified, backend: Self.other(than: backend), into: identities, output: "approved.pdf")
        let verdicts = try Self.verdicts(approved, backend: backend, identities: identities)
        #expect(verdicts.map(\.verdict) == [.valid, .valid])
        let pyHanko = try await identities.pyHanko(approved)
        #expect(pyHanko.map(\.docmdp_ok) == [true, true] && pyHanko.allSatisfy(\.valid), "\(pyHanko)")

        #expect { try Self.sign(certified, backend: backend, options: SigningOptions(certification: .formFilling), into: identities, output: "twice.pdf") } throws: {
            ($0 as? RendererError)?.code == .invalidArgument
        }
        let locked = try Self.sign(Fixtures.path("forms.pdf"), backend: backend, options: SigningOptions(certification: .noChanges), into: identities, output: "locked.pdf")
        #expect { try Self.sign(locked, backend: backend, into: identities, output: "refused.pdf") } throws: { ($0 as? RendererError)?.code == .notPermitted }
        #expect(!FileManager.default.fileExists(atPath: identities.path("twice.pdf")) && !FileManager.default.fileExists(atPath: identities.path("refused.pdf")))
    }

    /// A file whose last cross-reference section is a stream (qpdf's object streams) gets an
    /// update with a cross-reference stream too; every witness reads it.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func crossReferenceStreamsAreFollowedInKind(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let compressed = identities.path("compressed.pdf")
        #expect(try await Tool.run("qpdf", ["--object-streams=generate", Fixtures.path("forms.pdf"), compressed]).status == 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: compressed))
        let signed = try Self.sign(compressed, backend: backend, options: SigningOptions(placement: .newField(pageIndex: 0, area: PageRect(x: 72, y: 72, width: 200, height: 50)), isVisible: true), into: identities, output: "signed.pdf")
        let update = try Data(contentsOf: URL(fileURLWithPath: signed)).dropFirst(original.count)
        #expect(update.firstRange(of: Data("/Type /XRef".utf8)) != nil && update.firstRange(of: Data("\ntrailer".utf8)) == nil)
        try await Self.expectQPDFAccepts(signed)
        #expect(try await Tool.run("pdfsig", [signed]).text.contains("Signature is Valid"))
        let pyHanko = try await identities.pyHanko(signed)
        #expect(pyHanko.first.map { $0.valid && $0.trusted && $0.coverage == "ENTIRE_FILE" } == true, "\(pyHanko)")
    }

    /// What is refused, each with its typed error and nothing made: a wrong password, bytes
    /// that are not PKCS#12, an expired certificate, one that may not sign, a missing or
    /// signed field, a page the document lacks, an area that is not one, a visible new field
    /// without an area, unsaved changes, an encrypted document.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func whatCannotBeSignedIsRefused(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        func code(_ body: () throws -> Void) -> RendererError.Code? {
            do {
                try body()
                return nil
            } catch {
                return (error as? RendererError)?.code
            }
        }
        #expect(code { _ = try SigningIdentity(pkcs12File: identities.path("signer.p12"), password: "wrong") } == .wrongPassword)
        #expect(code { _ = try SigningIdentity(pkcs12File: identities.path("ca.pem"), password: SigningIdentities.password) } == .invalidArgument)
        #expect(code { _ = try SigningIdentity(pkcs12File: identities.path("missing.p12"), password: "") } == .fileNotFound)

        let forms = Fixtures.path("forms.pdf")
        let document = try await Fixtures.conformanceRegistry.open(.file(forms), renderer: .id(backend))
        let signer = try Self.identity(identities)
        #expect(code { _ = try document.sign(with: try Self.identity(identities, "expired.p12")) } == .expired)
        #expect(code { _ = try document.sign(with: try Self.identity(identities, "encipher-only.p12")) } == .notPermitted)
        #expect(code { _ = try document.sign(with: signer, options: SigningOptions(placement: .field("Nowhere"))) } == .invalidArgument)
        #expect(code { _ = try document.sign(with: signer, options: SigningOptions(placement: .newField(pageIndex: 7))) } == .pageOutOfRange)
        #expect(code { _ = try document.sign(with: signer, options: SigningOptions(placement: .newField(pageIndex: 0), isVisible: true)) } == .invalidArgument)
        let nan = PageRect(x: .nan, y: 0, width: 10, height: 10)
        #expect(code { _ = try document.sign(with: signer, options: SigningOptions(placement: .newField(pageIndex: 0, area: nan), isVisible: true)) } == .invalidArgument)
        #expect(code { _ = try document.sign(with: signer, options: SigningOptions(placement: .newField(name: "a.b", pageIndex: 0))) } == .invalidArgument)

        let signedFixture = try Fixtures.open("signed.pdf", backend: backend)
        #expect(code { _ = try signedFixture.sign(with: signer, options: SigningOptions(placement: .field("Approval"))) } == .invalidArgument)

        let changed = try await Fixtures.conformanceRegistry.open(.file(forms), renderer: .id(backend))
        try changed.addLink(Link(area: PageRect(x: 10, y: 10, width: 20, height: 20), destination: .uri("https://example.org")), pageAt: 0)
        #expect(code { _ = try changed.sign(with: signer) } == .invalidArgument)

        let encrypted = try Fixtures.open("encrypted.pdf", backend: backend, password: "owner-secret")
        #expect(code { _ = try encrypted.sign(with: signer) } == .unsupported)
    }

    /// A signature timestamped by the test authority (PAdES B-T, OpenSSL's `ts -reply` on
    /// loopback), then the file timestamped by the other engine (a document timestamp): both
    /// timestamps verify for pyHanko and for this verifier; a certification that allows no
    /// change still takes a document timestamp; an authority that is gone is an `ioFailure`
    /// with nothing made.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func timestampsComeFromTheAuthorityAndVerify(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let (server, authority, stamped) = try await Self.timestampedSignature(backend: backend, identities: identities)
        let verdict = try #require(try Self.verdicts(stamped, backend: Self.other(than: backend), identities: identities).first)
        #expect(verdict.verdict == .valid && verdict.reasons.map(\.code) == [.intact, .trusted, .timestamped, .coversWholeFile], "\(verdict.reasons)")
        #expect(abs((verdict.timestampTime ?? .distantPast).timeIntervalSinceNow) < 3600)
        let pyHanko = try await identities.pyHanko(stamped)
        #expect(pyHanko.map { $0.valid && $0.timestamp_valid == true && $0.timestamp_trusted == true } == [true], "\(pyHanko)")

        let document = try await Fixtures.conformanceRegistry.open(.file(stamped), renderer: .id(Self.other(than: backend)))
        let lta = identities.path("lta.pdf")
        try document.timestamp(authority: authority).write(to: URL(fileURLWithPath: lta))
        let verdicts = try Self.verdicts(lta, backend: backend, identities: identities)
        #expect(verdicts.map(\.field) == ["Signature1", "Timestamp1"])
        #expect(verdicts.map(\.verdict) == [.valid, .valid], "\(verdicts.map(\.reasons))")
        #expect(verdicts.last?.reasons.map(\.code) == [.intact, .trusted, .coversWholeFile] && verdicts.last?.signer?.contains("CN=Test TSA") == true)
        let ltaWitness = try await identities.pyHanko(lta)
        #expect(ltaWitness.map(\.kind) == ["signature", "timestamp"])
        #expect(ltaWitness.last.map { $0.intact && $0.valid && $0.trusted && $0.coverage == "ENTIRE_FILE" } == true, "\(ltaWitness)")
        #expect(ltaWitness.first.map { $0.valid && $0.coverage == "ENTIRE_REVISION" } == true)
        try await Self.expectQPDFAccepts(lta)

        let locked = try Self.sign(Fixtures.path("forms.pdf"), backend: backend, options: SigningOptions(certification: .noChanges), into: identities, output: "locked.pdf")
        let lockedStamped = identities.path("locked-stamped.pdf")
        try await Fixtures.conformanceRegistry.open(.file(locked), renderer: .id(backend)).timestamp(authority: authority).write(to: URL(fileURLWithPath: lockedStamped))
        #expect(try Self.verdicts(lockedStamped, backend: backend, identities: identities).map(\.verdict) == [.valid, .valid])
        #expect(try await identities.pyHanko(lockedStamped).first?.docmdp_ok == true)

        _ = await server.stop()
        #expect { try Self.sign(Fixtures.path("forms.pdf"), backend: backend, options: SigningOptions(timestampAuthority: authority), into: identities, output: "gone.pdf") } throws: {
            ($0 as? RendererError)?.code == .ioFailure
        }
        #expect(!FileManager.default.fileExists(atPath: identities.path("gone.pdf")))
    }

    /// What a stranger can do to timestamps in a file: a signature's timestamp token with a
    /// byte of its own signature changed (the outer signature, which does not cover it, stays
    /// intact), and a document timestamp whose token is not one. Each is a finding that fails
    /// the verdict, never an error; pyHanko finds the changed token invalid too.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func tamperedTimestampsAreFindingsNotErrors(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let (server, authority, stamped) = try await Self.timestampedSignature(backend: backend, identities: identities)
        defer { server.killAtOnce() }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: stamped))
        // The token is the CMS's last element, and the authority's signature value its last bytes.
        let hexStart = try #require(bytes.firstRange(of: Data("/Contents <".utf8))).upperBound
        let der = try SignerCertificate.signature(in: bytes)
        // A SEQUENCE in DER's long form: 0x30, 0x80 + the length's byte count, the length.
        try #require(der[0] == 0x30 && der[1] > 0x80 && der[1] <= 0x83)
        let lengthBytes = Int(der[1] & 0x7F)
        let derLength = 2 + lengthBytes + der[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
        let flipped = hexStart + 2 * (derLength - 8)
        bytes[flipped] = bytes[flipped] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        let tampered = identities.path("tampered-token.pdf")
        try bytes.write(to: URL(fileURLWithPath: tampered))
        let verdict = try #require(try Self.verdicts(tampered, backend: backend, identities: identities).first)
        #expect(verdict.verdict == .invalid && verdict.reasons.map(\.code) == [.intact, .trusted, .timestampMismatch, .coversWholeFile], "\(verdict.reasons)")
        #expect(try await identities.pyHanko(tampered).map { $0.intact && $0.timestamp_valid == false } == [true])

        let lta = identities.path("lta.pdf")
        try await Fixtures.conformanceRegistry.open(.file(stamped), renderer: .id(backend)).timestamp(authority: authority).write(to: URL(fileURLWithPath: lta))
        var ltaBytes = try Data(contentsOf: URL(fileURLWithPath: lta))
        let lastContents = try #require(ltaBytes.lastRange(of: Data("/Contents <".utf8))).upperBound
        ltaBytes.replaceSubrange(lastContents..<(lastContents + 8), with: Data("DEADBEEF".utf8))
        let garbage = identities.path("garbage-timestamp.pdf")
        try ltaBytes.write(to: URL(fileURLWithPath: garbage))
        let verdicts = try Self.verdicts(garbage, backend: backend, identities: identities)
        #expect(verdicts.map(\.field) == ["Signature1", "Timestamp1"])
        #expect(verdicts.last?.verdict == .invalid && verdicts.last?.reasons.first?.code == .malformedSignature, "\(verdicts.last?.reasons ?? [])")
    }

    /// A careless authority: timestamps signed by a certificate without the extended key
    /// usage timeStamping that RFC 3161 (2.3) asks, though it leads to the trusted root. In a
    /// file pyHanko made (`stamp-carelessly.py`), the signature's timestamp and the document
    /// timestamp are findings that fail their verdicts, and pyHanko trusts neither; signing
    /// or timestamping with such an authority is refused with nothing made.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func anAuthorityThatMayNotStampIsRefused(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let careless = identities.path("careless.pdf")
        let made = try await Tool.run("python3", [Fixtures.path("Signing/stamp-carelessly.py"), identities.folder.path, Fixtures.path("forms.pdf"), careless])
        try #require(made.status == 0, "\(made.stderr)")
        let verdicts = try Self.verdicts(careless, backend: backend, identities: identities)
        #expect(verdicts.map(\.field) == ["Signature1", "Timestamp1"])
        #expect(verdicts.map(\.verdict) == [.invalid, .invalid], "\(verdicts.map(\.reasons))")
        #expect(verdicts.first?.reasons.prefix(3).map(\.code) == [.intact, .trusted, .timestampMismatch] && verdicts.first?.timestampTime == nil)
        #expect(verdicts.last?.reasons.map(\.code) == [.intact, .keyUsage, .trusted, .coversWholeFile], "\(verdicts.last?.reasons ?? [])")
        let witness = try await identities.pyHanko(careless)
        #expect(witness.map { $0.intact && $0.valid } == [true, true] && witness.map { $0.timestamp_trusted ?? $0.trusted } == [false, false], "\(witness)")

        let (server, url) = try await identities.startTimestampAuthority(signer: "signer.p12")
        defer { server.killAtOnce() }
        let authority = try TimestampAuthority(url: url)
        #expect { try Self.sign(Fixtures.path("forms.pdf"), backend: backend, options: SigningOptions(timestampAuthority: authority), into: identities, output: "b-t.pdf") } throws: {
            ($0 as? RendererError)?.code == .engineFailure && "\($0)".contains("may not stamp times")
        }
        #expect(!FileManager.default.fileExists(atPath: identities.path("b-t.pdf")))
        #expect { try Fixtures.conformanceRegistry.open(.file(Fixtures.path("forms.pdf")), renderer: .id(backend)).timestamp(authority: authority) } throws: {
            ($0 as? RendererError)?.code == .engineFailure
        }
    }

    /// Revocation lists given with the trust anchors: a signer the root's list names is
    /// `revoked` (invalid), one it does not name is `notRevoked`, though the list was issued
    /// after the signatures (dated 2021) and the chains are checked at their signing time;
    /// without a list nothing is said of revocation; a list in PEM counts as in DER, and one
    /// the document security store keeps counts as one given (and junk there, nothing). OCSP
    /// responses the root signed (given, or kept in the store) say the same, as OpenSSL's
    /// OCSP reader does. pyHanko, given the same list, finds the same signer revoked and the
    /// other not.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func revocationListsGivenAreChecked(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let dated = SigningOptions(date: Date(timeIntervalSince1970: 1_609_459_200))  // 2021-01-01
        let revokedSigner = try Self.sign(Fixtures.path("forms.pdf"), backend: backend, as: "revoked.p12", options: dated, into: identities, output: "by-rex.pdf")
        let goodSigner = try Self.sign(Fixtures.path("forms.pdf"), backend: backend, options: dated, into: identities, output: "by-ada.pdf")
        let root = try Data(contentsOf: URL(fileURLWithPath: identities.path("ca.pem")))
        let list = try Data(contentsOf: URL(fileURLWithPath: identities.path("revoked.crl")))
        let verdict = { (path: String, trust: TrustAnchors) in
            try #require(try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).verifySignatures(trust: trust).first)
        }
        let withList = TrustAnchors(pem: root, revocationLists: [list])
        let revoked = try verdict(revokedSigner, withList)
        #expect(revoked.verdict == .invalid && revoked.reasons.map(\.code) == [.intact, .revoked, .coversWholeFile], "\(revoked.reasons)")
        let kept = try verdict(goodSigner, withList)
        #expect(kept.verdict == .valid && kept.reasons.map(\.code) == [.intact, .trusted, .notRevoked, .coversWholeFile], "\(kept.reasons)")
        #expect(try verdict(revokedSigner, TrustAnchors(pem: root)).reasons.map(\.code) == [.intact, .trusted, .coversWholeFile])
        let pemList = Data("-----BEGIN X509 CRL-----\n\(list.base64EncodedString(options: .lineLength64Characters))\n-----END X509 CRL-----\n".utf8)
        #expect(try verdict(revokedSigner, TrustAnchors(pem: root, revocationLists: [pemList])).verdict == .invalid)

        // The same list kept in each file's document security store (PAdES B-LT, written by
        // the other engine) counts as given: the store is read back as written.
        for (path, expected) in [(revokedSigner, SignatureVerification.Code.revoked), (goodSigner, .notRevoked)] {
            let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(Self.other(than: backend)))
            let stored = identities.path("stored-" + URL(fileURLWithPath: path).lastPathComponent)
            try document.addingValidationData(ValidationData(crls: [list])).write(to: URL(fileURLWithPath: stored))
            let reopened = try await Fixtures.conformanceRegistry.open(.file(stored), renderer: .id(backend))
            #expect(try reopened.validationData().crls == [list])
            let codes = try #require(try reopened.verifySignatures(trust: TrustAnchors(pem: root)).first).reasons.map(\.code)
            #expect(codes.contains(expected), "\(codes)")
        }

        // What a stranger could put in the store instead (bytes that are no list and no
        // response) says nothing: the verdict stays as it was without them.
        let junk = identities.path("stored-junk.pdf")
        try await Fixtures.conformanceRegistry.open(.file(revokedSigner), renderer: .id(Self.other(than: backend)))
            .addingValidationData(ValidationData(crls: [Data("not a list".utf8)], ocspResponses: [Data([0x30, 0x82, 0xFF, 0xFF, 0x00])]))
            .write(to: URL(fileURLWithPath: junk))
        let unjudged = try verdict(junk, TrustAnchors(pem: root)).reasons.map(\.code)
        #expect(unjudged == [.intact, .trusted, .coversItsRevision, .allowedChanges], "\(unjudged)")

        // OCSP responses the root signed, given and kept in the store, say the same.
        let responses = (revoked: try Data(contentsOf: URL(fileURLWithPath: identities.path("revoked.ocsp"))),
                         good: try Data(contentsOf: URL(fileURLWithPath: identities.path("signer.ocsp"))))
        let answered = TrustAnchors(pem: root, ocspResponses: [responses.good, responses.revoked])
        #expect(try verdict(revokedSigner, answered).reasons.map(\.code) == [.intact, .revoked, .coversWholeFile])
        #expect(try verdict(goodSigner, answered).reasons.map(\.code) == [.intact, .trusted, .notRevoked, .coversWholeFile])
        // A junk item before them (a header that claims 64 KB) is passed over, not the end.
        let afterJunk = TrustAnchors(pem: root, ocspResponses: [Data([0x30, 0x82, 0xFF, 0xFF, 0x00]), responses.revoked])
        #expect(try verdict(revokedSigner, afterJunk).reasons.map(\.code) == [.intact, .revoked, .coversWholeFile])
        let storedResponse = identities.path("stored-ocsp.pdf")
        try await Fixtures.conformanceRegistry.open(.file(revokedSigner), renderer: .id(Self.other(than: backend)))
            .addingValidationData(ValidationData(ocspResponses: [responses.revoked])).write(to: URL(fileURLWithPath: storedResponse))
        #expect(try verdict(storedResponse, TrustAnchors(pem: root)).verdict == .invalid)
        // OpenSSL's own OCSP reader, the witness here (pyHanko finds no response applicable to
        // a certificate that names no OCSP responder), verifies the response and reads it so.
        let reader = try await Tool.run("openssl", ["ocsp", "-respin", identities.path("revoked.ocsp"), "-CAfile", identities.path("ca.pem"), "-resp_text"])
        #expect(reader.stderr.contains("Response verify OK") && reader.text.contains("Cert Status: revoked"), "\(reader.text)\(reader.stderr)")

        let roots = [identities.path("ca.pem")], lists = [identities.path("revoked.crl")]
        #expect(try await SigningIdentities.pyHanko(revokedSigner, roots: roots, revocationLists: lists).map(\.revoked) == [true])
        let witness = try await SigningIdentities.pyHanko(goodSigner, roots: roots, revocationLists: lists)
        #expect(witness.map { $0.revoked == false && $0.valid && $0.trusted } == [true], "\(witness)")
    }

    /// Validation data added by one engine to a timestamped signature (PAdES B-LT), then a
    /// document timestamp (B-LTA): the store holds the signer's, the root's and the
    /// authority's certificates and the root's CRL, each once, for pyHanko; every signature
    /// stays valid; a second store update appends to the first, and what the store holds
    /// already (every certificate, the CRL) is not written again.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func validationDataIsKeptForTheLongTerm(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let (server, authority, stamped) = try await Self.timestampedSignature(backend: backend, identities: identities)
        defer { server.killAtOnce() }
        #expect(try await SigningIdentities.pyHankoSecurityStore(stamped) == nil)
        let crl = try Data(contentsOf: URL(fileURLWithPath: identities.path("ca.crl")))
        let document = try await Fixtures.conformanceRegistry.open(.file(stamped), renderer: .id(Self.other(than: backend)))
        let withData = try document.addingValidationData(ValidationData(crls: [crl, crl]))
        let lt = identities.path("b-lt.pdf")
        try withData.write(to: URL(fileURLWithPath: lt))
        let store = try #require(try await SigningIdentities.pyHankoSecurityStore(lt))
        let organization = "Organization: Renderer Provider Tests, Common Name: "
        #expect(store.certificates == ["Ada Signer", "Test Signing Root", "Test TSA"].map { organization + $0 }, "\(store)")
        #expect(store.crls == [organization + "Test Signing Root"] && store.ocsps == 0 && store.entries == ["Certs": 3, "CRLs": 1, "OCSPs": 0], "\(store.entries)")
        #expect(try Self.verdicts(lt, backend: backend, identities: identities).map(\.verdict) == [.valid])
        try await Self.expectQPDFAccepts(lt)

        let lta = identities.path("b-lta.pdf")
        try await Fixtures.conformanceRegistry.open(.file(lt), renderer: .id(backend)).timestamp(authority: authority).write(to: URL(fileURLWithPath: lta))
        #expect(try Self.verdicts(lta, backend: Self.other(than: backend), identities: identities).map(\.verdict) == [.valid, .valid])
        let witness = try await identities.pyHanko(lta)
        #expect(witness.map(\.kind) == ["signature", "timestamp"] && witness.allSatisfy { $0.valid && $0.trusted }, "\(witness)")

        // More data later: appended to the store there is.
        let again = identities.path("again.pdf")
        let ocsp = Data([0x30, 0x03, 0x0A, 0x01, 0x06])  // an OCSP response "unauthorized": a DER item to keep, as given
        try await Fixtures.conformanceRegistry.open(.file(lta), renderer: .id(backend)).addingValidationData(ValidationData(ocspResponses: [ocsp])).write(to: URL(fileURLWithPath: again))
        let grown = try #require(try await SigningIdentities.pyHankoSecurityStore(again))
        #expect(grown.crls.count == 1 && grown.ocsps == 1 && grown.certificates.count == 3, "\(grown)")
        #expect(grown.entries == ["Certs": 3, "CRLs": 1, "OCSPs": 1], "\(grown.entries)")
        let same = identities.path("same.pdf")
        let rootPEM = try String(contentsOfFile: identities.path("ca.pem"), encoding: .utf8)
        let root = try #require(Data(base64Encoded: rootPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()))
        try await Fixtures.conformanceRegistry.open(.file(again), renderer: .id(Self.other(than: backend)))
            .addingValidationData(ValidationData(certificates: [root], crls: [crl], ocspResponses: [ocsp]))
            .write(to: URL(fileURLWithPath: same))
        #expect(try await SigningIdentities.pyHankoSecurityStore(same)?.entries == ["Certs": 3, "CRLs": 1, "OCSPs": 1])
        try await Self.expectQPDFAccepts(again)
    }

    /// A signer the test CA did not issue: pyHanko and this verifier find the signature
    /// intact and its signer untrusted.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aStrangersSignatureIsIntactButUntrusted(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let signed = try Self.sign(Fixtures.path("forms.pdf"), backend: backend, as: "stranger.p12", into: identities, output: "stranger.pdf")
        let verdict = try #require(try Self.verdicts(signed, backend: backend, identities: identities).first)
        #expect(verdict.verdict == .unknown && verdict.reasons.map(\.code) == [.intact, .untrusted, .coversWholeFile])
        let pyHanko = try await identities.pyHanko(signed)
        #expect(pyHanko.first.map { $0.intact && $0.valid && !$0.trusted } == true, "\(pyHanko)")
    }
}
