import Foundation
import RendererProvider
import Testing
import TestSupport

/// The built `hostapp`, run as a user runs it: output and exit codes.
@Suite("hostapp end to end")
struct HostAppTests {
    /// The executable SwiftPM built next to this test bundle.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("hostapp").path

    func hostapp(_ arguments: String..., environment: [String: String] = [:]) async throws -> Tool.Result {
        try await Tool.run(Self.executable, arguments, environment: environment)
    }

    /// no-pages.pdf (make-fixtures.sh) is repaired by MuPDF into no pages: a document error,
    /// never an empty success, with every backend.
    @Test(arguments: ["mupdf", "poppler", "auto"])
    func aFileRepairedIntoNoPagesIsADocumentError(backend: String) async throws {
        let result = try await hostapp("--renderer", backend, "info", Fixtures.path("no-pages.pdf"))
        #expect(result.status == 65 && result.stderr.contains("damaged"), "\(result.stderr)")
    }

    /// embedded-encrypted.pdf (make-fixtures.sh): only its attachment is encrypted, so MuPDF
    /// wants the password and Poppler does not; `auto` says it serves Poppler.
    @Test func aFileWhoseAttachmentAloneIsEncryptedIsServedByPoppler() async throws {
        let file = Fixtures.path("embedded-encrypted.pdf")
        let mupdf = try await hostapp("--renderer", "mupdf", "info", file)
        #expect(mupdf.status == 65 && mupdf.stderr.contains("password"), "\(mupdf.stderr)")
        let auto = try await hostapp("info", file)
        #expect(auto.status == 0 && auto.text.contains("Renderer:     poppler"), "\(auto.text)\(auto.stderr)")
        #expect(try await hostapp("text", file).text.contains("Only the attachment is encrypted."))
        #expect(try await hostapp("--password", "embedded-secret", "info", file).text.contains("Renderer:     mupdf"))
    }

    /// broken-page-tree.pdf (make-fixtures.sh): 5 pages by its page tree, 3 that load. Every
    /// backend serves those 3 in info, render and text, and reports 4 and 5 on their own
    /// (exit 65); pdftotext reads the same 3 pages.
    @Test(arguments: ["mupdf", "poppler", "auto"])
    func aBrokenPageTreeServesEveryPageThatLoads(backend: String) async throws {
        let file = Fixtures.path("broken-page-tree.pdf")
        let info = try await hostapp("--renderer", backend, "info", file)
        #expect(info.status == 65 && info.text.contains("Pages:        5"), "\(info.stderr)")
        #expect(info.text.contains("   3  612 x 792") && info.text.contains("   4  (cannot be loaded)") && info.text.contains("   5  (cannot be loaded)"), "\(info.text)")
        #expect(info.stderr.contains("page 4:") && info.stderr.contains("page 5:"), "\(info.stderr)")
        let json = try await JSONSerialization.jsonObject(with: try hostapp("--renderer", backend, "info", "--json", file).stdout) as? [String: Any]
        #expect((json?["pages"] as? [Any])?.count == 3)
        #expect((json?["failedPages"] as? [[String: Any]])?.compactMap { $0["number"] as? Int } == [4, 5])

        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let render = try await hostapp("--renderer", backend, "render", file, "-r", "20", "-o", directory.path)
        #expect(render.status == 65)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == (1...3).map { "broken-page-tree-\($0).png" })
        for page in 1...3 {
            let ours = try await hostapp("--renderer", backend, "text", file, "--pages", "\(page)").text
            let theirs = try await Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", file, "-"]).text
            #expect(Fixtures.normalizedWhitespace(ours) == Fixtures.normalizedWhitespace(theirs), "page \(page)")
        }
    }

    @Test func renderersListsTheEnginesWithVersions() async throws {
        let result = try await hostapp("renderers")
        #expect(result.status == 0)
        #expect(result.text.contains("mupdf\tMuPDF 1.21"))
        #expect(result.text.contains("poppler\tPoppler 22.12"))
        #expect(result.text.contains("ghostscript\tGhostscript 10.00"))
        let json = try await JSONSerialization.jsonObject(with: try hostapp("backends", "--json").stdout) as? [[String: Any]]
        #expect(json?.map { $0["id"] as? String } == ["mupdf", "poppler", "ghostscript"])
        #expect(json?.map { $0["chosenByAuto"] as? Bool } == [true, true, false])
        #expect(result.text.contains("auto:         not tried: chosen by name only"))
        #expect((json?.first?["capabilities"] as? [String])?.contains("render") == true)
        // `backends`, the command's former name, still answers in this release.
        #expect(try await hostapp("backends").text == result.text)
    }

    /// The third engine through the command line: drawing and text by name, `auto` never
    /// choosing it, a wrong password refused with the others' exit code, and isolated too.
    @Test func ghostscriptIsChosenByName() async throws {
        let file = Fixtures.path("text.pdf")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gs-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let drawn = try await hostapp("--renderer", "ghostscript", "render", "--format", "ppm", "--dpi", "40", "--pages", "1", "-o", folder.path, file)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let page = try Netpbm(Data(contentsOf: folder.appendingPathComponent("text-1.ppm")))
        #expect(page.width == 340 && page.pixels.contains { $0 < 128 })
        let witness = try await Tool.run("gs", ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite", "-dUseCropBox", "-sOutputFile=-", file])
        for isolate in [[], ["--isolate"]] {
            let text = try await Tool.run(Self.executable, isolate + ["--renderer", "ghostscript", "text", file])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(Fixtures.normalizedWhitespace(text.text) == Fixtures.normalizedWhitespace(witness.text), "\(isolate)")
        }
        #expect(try await hostapp("info", "--json", file).text.contains("\"backend\" : \"mupdf\""))
        let wrong = try await hostapp("--renderer", "ghostscript", "--password", "wrong", "text", Fixtures.path("encrypted.pdf"))
        #expect(wrong.status == 65 && wrong.stderr.contains("neither its user nor its owner password"), "\(wrong.stderr)")
        let right = try await hostapp("--renderer", "ghostscript", "--password", "owner-secret", "text", Fixtures.path("encrypted.pdf"))
        #expect(right.status == 0 && !right.text.isEmpty, "\(right.stderr)")
        // info shows the pages without metadata, which Ghostscript does not read.
        let info = try await hostapp("--renderer", "ghostscript", "info", Fixtures.path("rotated.pdf"))
        #expect(info.status == 0 && info.text.contains("Pages:        4") && info.text.contains("Metadata:     not read by this engine"), "\(info.stderr)")
        #expect(info.text.contains("   2  792 x 612                    90  2"), "\(info.text)")
        let json = try #require(try JSONSerialization.jsonObject(with: await hostapp("--renderer", "ghostscript", "info", "--json", file).stdout) as? [String: Any])
        #expect(json["info"] == nil && (json["pages"] as? [Any])?.count == 3)
        let unsupported = try await hostapp("--renderer", "ghostscript", "outline", file)
        #expect(unsupported.status != 0 && unsupported.stderr.contains("ghostscript"), "\(unsupported.stderr)")
    }

    @Test(arguments: ["mupdf", "poppler"])
    func infoAgreesWithPdfinfo(backend: String) async throws {
        let file = Fixtures.path("rotated.pdf")
        let result = try await hostapp("--renderer", backend, "info", "--json", file)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(report["renderer"] as? String == backend && report["backend"] as? String == backend)
        let pages = try #require(report["pages"] as? [[String: Any]])
        let pdfinfo = try await Tool.run("pdfinfo", ["-l", "99", file]).text
        #expect(pdfinfo.contains("Pages:           \(pages.count)"))
        for page in pages {
            let number = page["number"] as! Int, rotation = page["rotation"] as! Int
            var (w, h) = (page["width"] as! Double, page["height"] as! Double)
            if rotation % 180 != 0 { swap(&w, &h) }
            #expect(pdfinfo.contains("Page    \(number) size:  \(Int(w)) x \(Int(h)) pts"))
            #expect(pdfinfo.contains("Page    \(number) rot:   \(rotation)"))
        }
    }

    /// `info --boxes` prints each page's boxes as `pdfinfo -box` does; JSON always has them.
    @Test(arguments: ["mupdf", "poppler"])
    func infoPrintsTheBoxes(backend: String) async throws {
        let file = Fixtures.path("boxes.pdf")
        let text = try await hostapp("--renderer", backend, "info", "--boxes", file)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.text.contains("   3  300 x 400                     0  3\n      MediaBox  0 0 300 400\n      CropBox   0 0 300 400\n"))
        #expect(text.text.contains("      TrimBox   100 100 300 400\n"))
        let json = try await hostapp("--renderer", backend, "info", "--json", file)
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let pages = try #require(report["pages"] as? [[String: Any]])
        let trim = (pages[2]["boxes"] as? [String: Any])?["trim"] as? [String: Double]
        #expect(trim == ["x0": 100, "y0": 100, "x1": 300, "y1": 400])
        let compared = try await hostapp("compare", file)
        #expect(compared.status == 0 && !compared.text.contains(" box: "), "\(compared.text)")
    }

    @Test func infoTextShowsMetadataAndPages() async throws {
        let result = try await hostapp("info", Fixtures.path("labels.pdf"), environment: ["HOSTAPP_RENDERER": "poppler"])
        #expect(result.status == 0)
        #expect(result.text.contains("Renderer:     poppler"))
        #expect(result.text.contains("Pages:        9"))
        #expect(result.text.contains("   9  300 x 300                     0  AA"))
        let flagWins = try await hostapp("info", "--renderer", "mupdf", Fixtures.path("labels.pdf"), environment: ["HOSTAPP_RENDERER": "poppler"])
        #expect(flagWins.text.contains("Renderer:     mupdf"))
        // HOSTAPP_BACKEND, the variable's former name, is still read in this release; the new name wins.
        let former = try await hostapp("info", Fixtures.path("labels.pdf"), environment: ["HOSTAPP_BACKEND": "poppler"])
        #expect(former.text.contains("Renderer:     poppler"))
        let both = try await hostapp("info", Fixtures.path("labels.pdf"), environment: ["HOSTAPP_BACKEND": "poppler", "HOSTAPP_RENDERER": "mupdf"])
        #expect(both.text.contains("Renderer:     mupdf"))
    }

    /// `signatures` lists each field as the API reads it, in text and JSON.
    @Test(arguments: ["mupdf", "poppler"])
    func signaturesListsEveryField(backend: String) async throws {
        let text = try await hostapp("--renderer", backend, "signatures", Fixtures.path("signed.pdf"))
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.text.contains("Approval (page 1): signed\n  Signer:     Fixture Signer\n"))
        #expect(text.text.contains("  Whole file: yes\nReview.Witness (page 1): not signed\n"))
        let json = try await hostapp("--renderer", backend, "signatures", Fixtures.path("signed-then-changed.pdf"), "--json")
        let fields = try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
        #expect(fields?.map { $0["name"] as? String } == ["Approval", "Review.Witness"])
        #expect(fields?.first?["coversWholeFile"] as? Bool == false && fields?.first?["signingTime"] as? String == "2024-03-09T16:00:00Z")
        #expect(try await hostapp("--renderer", backend, "signatures", Fixtures.path("text.pdf")).text == "(no signature fields)\n")
    }

    /// `signatures --verify`: unknown without an anchor, valid with the signer's certificate
    /// as one (`--trust`), invalid with exit status 1 once a signed byte changed; `--trust`
    /// without `--verify` is a usage error.
    @Test func signaturesVerifyGivesVerdictsAndAnExitStatus() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let signed = Fixtures.path("signed.pdf")
        let unknown = try await hostapp("signatures", "--verify", signed)
        #expect(unknown.status == 0 && unknown.text.hasPrefix("Approval: unknown (O=RendererProvider fixtures,CN=Fixture Signer)\n  [intact]"), "\(unknown.text)")
        let pdf = try Data(contentsOf: URL(fileURLWithPath: signed))
        let pem = try await SignerCertificate.extract(from: signed, into: folder).path
        let valid = try await hostapp("signatures", "--verify", "--trust", pem, "--json", signed)
        let verdicts = try #require(try JSONSerialization.jsonObject(with: valid.stdout) as? [[String: Any]])
        #expect(valid.status == 0 && verdicts.map { $0["verdict"] as? String } == ["valid", "unknown"])
        var tampered = pdf
        tampered[try #require(pdf.firstRange(of: Data("(A signed page)".utf8))).lowerBound + 1] = UInt8(ascii: "a")
        let path = folder.appendingPathComponent("tampered.pdf").path
        try tampered.write(to: URL(fileURLWithPath: path))
        let invalid = try await hostapp("signatures", "--verify", "--trust", pem, path)
        #expect(invalid.status == 1 && invalid.text.contains("Approval: invalid") && invalid.text.contains("[signatureMismatch]"), "\(invalid.text)")
        #expect(try await hostapp("signatures", "--trust", pem, signed).status == 64)
    }

    /// `sign` writes a signed copy that pdfsig, pyHanko and `signatures --verify` accept (with
    /// `--crl` or `--ocsp`, a list or response that does not call the signer revoked,
    /// `notRevoked`), the input
    /// untouched; a wrong password, an expired certificate or a usage error writes
    /// nothing and exits non-zero, never naming the password.
    @Test(arguments: ["mupdf", "poppler"])
    func signWritesASignedCopyOrNothing(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let input = Fixtures.path("forms.pdf"), output = identities.path("signed.pdf")
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        let signed = try await hostapp(
            "--renderer", backend, "sign", input, "--cert", identities.path("signer.p12"), "--password-file", identities.path("password.txt"),
            "--page", "1", "--rect", "72,72,200,50", "--visible", "--reason", "Approved", "--certify", "forms", "-o", output)
        #expect(signed.status == 0 && signed.text == "signed by Ada Signer into \(output)\n", "\(signed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
        let pdfsig = try await Tool.run("pdfsig", [output]).text
        #expect(pdfsig.contains("Signature is Valid") && pdfsig.contains("ETSI.CAdES.detached"), "\(pdfsig)")
        #expect(try await identities.pyHanko(output).map { $0.valid && $0.trusted && $0.docmdp_ok == true } == [true])
        let verified = try await hostapp("signatures", "--verify", "--trust", identities.path("ca.pem"), output)
        #expect(verified.status == 0 && verified.text.hasPrefix("Signature1: valid (O=Renderer Provider Tests,CN=Ada Signer)"), "\(verified.text)")
        let unrevoked = try await hostapp("signatures", "--verify", "--trust", identities.path("ca.pem"), "--crl", identities.path("revoked.crl"), "--json", output)
        #expect(unrevoked.status == 0 && unrevoked.text.contains("\"notRevoked\""), "\(unrevoked.text)")
        let answered = try await hostapp("signatures", "--verify", "--trust", identities.path("ca.pem"), "--ocsp", identities.path("signer.ocsp"), "--json", output)
        #expect(answered.status == 0 && answered.text.contains("\"notRevoked\""), "\(answered.text)")
        let unreadable = try await hostapp("signatures", "--verify", "--trust", identities.path("ca.pem"), "--crl", identities.path("no-such.crl"), output)
        #expect(unreadable.status != 0 && !unreadable.stderr.contains("Signature1"))

        let wrong = identities.path("wrong.txt")
        try Data("not the password\n".utf8).write(to: URL(fileURLWithPath: wrong))
        let refused = identities.path("refused.pdf")
        let attempts = [
            ["--cert", identities.path("signer.p12"), "--password-file", wrong, "--page", "1"],
            ["--cert", identities.path("expired.p12"), "--password-file", identities.path("password.txt"), "--page", "1"],
            ["--cert", identities.path("signer.p12"), "--password-file", identities.path("password.txt"), "--field", "NoSuchField"],
            ["--cert", identities.path("signer.p12"), "--password-file", identities.path("password.txt"), "--page", "1", "--visible"],
        ]
        for attempt in attempts {
            let run = try await Tool.run(Self.executable, ["--renderer", backend, "sign", input] + attempt + ["-o", refused])
            #expect(run.status != 0 && !run.stderr.isEmpty && !run.stderr.contains("correct horse") && !run.stderr.contains("not the password"), "\(attempt): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: refused))
        }
    }

    /// What an incremental update after the signature adds beyond pages and form (an
    /// embedded "invoice.exe", an outline item, a script of the JavaScript name tree, an
    /// open action that runs JavaScript) makes the signature invalid, saying what
    /// changed, on both engines; pyHanko, the witness, finds the same changes "other" and not
    /// permitted.
    @Test(arguments: ["mupdf", "poppler"])
    func embeddedFilesAndOutlineAddedAfterSigningInvalidateIt(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let signed = identities.path("signed.pdf")
        let made = try await hostapp(
            "sign", Fixtures.path("forms.pdf"), "--cert", identities.path("signer.p12"), "--password-file", identities.path("password.txt"), "--page", "1", "-o", signed)
        #expect(made.status == 0, "\(made.stderr)")
        let edits = [
            ("attached.pdf", #"writer.add_attachment("invoice.exe", b"MZ not a program")"#, "embedded files"),
            ("outlined.pdf", #"writer.add_outline_item(title="Pay here", page_number=0)"#, "outline"),
            ("scripted.pdf", """
                from pypdf.actions import JavaScript
                writer.add_open_action(JavaScript("app.launchURL('https://pay.example/');"))
                """, "document actions"),
            ("opening.pdf", """
                from pypdf.generic import DictionaryObject, NameObject, TextStringObject
                writer._root_object[NameObject("/OpenAction")] = DictionaryObject({
                    NameObject("/S"): NameObject("/JavaScript"), NameObject("/JS"): TextStringObject("app.alert('paid');")})
                """, "document actions"),
        ]
        for (name, edit, change) in edits {
            let changed = identities.path(name)
            let script = "import sys, pypdf\nwriter = pypdf.PdfWriter(sys.argv[1], incremental=True)\n\(edit)\nwriter.write(sys.argv[2])\n"
            let written = try await Tool.run("python3", ["-c", script, signed, changed])
            #expect(written.status == 0, "\(written.stderr)")
            let verified = try await hostapp("--renderer", backend, "signatures", "--verify", "--trust", identities.path("ca.pem"), "--json", changed)
            #expect(verified.status == 1, "\(name): \(verified.text)")
            let verdicts = try #require(try JSONSerialization.jsonObject(with: verified.stdout) as? [[String: Any]])
            let reasons = (verdicts.first?["reasons"] as? [[String: Any]]) ?? []
            let finding = reasons.first { $0["code"] as? String == "changedAfterSigning" }?["message"] as? String
            #expect(verdicts.first?["verdict"] as? String == "invalid" && finding?.contains(change) == true, "\(name): \(reasons)")
            #expect(try await identities.pyHanko(changed).map(\.docmdp_ok) == [false], "\(name): pyHanko finds the change not permitted")
        }
    }

    /// A signature that cannot be read gets its own verdict and hides no other, with trust
    /// anchors given: the first signature stays valid, the second (its CMS bytes zeroed) is
    /// malformed, and the command exits 1 as for any invalid signature.
    @Test(arguments: ["mupdf", "poppler"])
    func anUnreadableSignatureGetsItsOwnVerdict(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let (once, twice) = (identities.path("once.pdf"), identities.path("twice.pdf"))
        for (input, output) in [(Fixtures.path("forms.pdf"), once), (once, twice)] {
            let signed = try await hostapp(
                "sign", input, "--cert", identities.path("signer.p12"), "--password-file", identities.path("password.txt"), "--page", "1", "-o", output)
            #expect(signed.status == 0, "\(signed.stderr)")
        }
        // The second signature's /Contents, the last in the file, becomes zeros of the same length.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: twice))
        let contents = try #require(bytes.ranges(of: Data("/Contents".utf8)).last)
        let open = try #require(bytes[contents.upperBound...].firstIndex(of: UInt8(ascii: "<")))
        let close = try #require(bytes[open...].firstIndex(of: UInt8(ascii: ">")))
        bytes.replaceSubrange((open + 1)..<close, with: Data(repeating: UInt8(ascii: "0"), count: close - open - 1))
        try bytes.write(to: URL(fileURLWithPath: twice))
        let verified = try await hostapp("--renderer", backend, "signatures", "--verify", "--trust", identities.path("ca.pem"), "--json", twice)
        #expect(verified.status == 1, "\(verified.stderr)")
        let verdicts = try #require(try JSONSerialization.jsonObject(with: verified.stdout) as? [[String: Any]])
        #expect(verdicts.map { $0["field"] as? String } == ["Signature1", "Signature2"])
        #expect(verdicts.map { $0["verdict"] as? String } == ["valid", "invalid"], "\(verdicts)")
        let codes = (verdicts.last?["reasons"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
        #expect(codes == ["malformedSignature"], "\(verdicts)")
    }

    /// `sign` and `ltv` write a new file and sign, so they ask the settings first: a settings
    /// file without `signing` or without `saveTo` refuses them (77, naming the setting) and
    /// nothing is written; the same commands without the settings succeed.
    @Test(arguments: ["mupdf", "poppler"])
    func signAndLTVAskTheSettings(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let input = Fixtures.path("forms.pdf"), output = identities.path("signed.pdf")
        let sign = ["sign", input, "--cert", identities.path("signer.p12"), "--password-file", identities.path("password.txt"), "--page", "1", "-o", output]
        for (json, setting) in [(#"{"signing": false}"#, "signing"), (#"{"saveTo": {"available": false}}"#, "saveTo")] {
            let settings = identities.path("settings.json")
            try Data(json.utf8).write(to: URL(fileURLWithPath: settings))
            let refused = try await Tool.run(Self.executable, ["--renderer", backend, "--settings", settings] + sign)
            #expect(refused.status == 77 && refused.stderr.contains("setting \(setting)"), "\(json): \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        let signed = try await Tool.run(Self.executable, ["--renderer", backend] + sign)
        #expect(signed.status == 0, "\(signed.stderr)")
        let settings = identities.path("settings.json"), extended = identities.path("ltv.pdf")
        try Data(#"{"signing": false}"#.utf8).write(to: URL(fileURLWithPath: settings))
        let ltv = ["ltv", output, "--crl", identities.path("ca.crl"), "-o", extended]
        let refused = try await Tool.run(Self.executable, ["--renderer", backend, "--settings", settings] + ltv)
        #expect(refused.status == 77 && refused.stderr.contains("setting signing"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: extended))
        let added = try await Tool.run(Self.executable, ["--renderer", backend] + ltv)
        #expect(added.status == 0 && FileManager.default.fileExists(atPath: extended), "\(added.stderr)")
    }

    /// `sign --tsa` timestamps the signature and `ltv --crl --tsa` adds the validation data and
    /// a document timestamp; a `--tsa` that is no address is a usage error with nothing written.
    @Test func signWithATimestampThenLongTermData() async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let (server, url) = try await identities.startTimestampAuthority()
        defer { server.killAtOnce() }
        let (stamped, lta) = (identities.path("b-t.pdf"), identities.path("b-lta.pdf"))
        let signed = try await hostapp(
            "sign", Fixtures.path("forms.pdf"), "--cert", identities.path("signer.p12"), "--password-file", identities.path("password.txt"), "--page", "1",
            "--tsa", url.absoluteString, "-o", stamped)
        #expect(signed.status == 0, "\(signed.stderr)")
        let added = try await hostapp("ltv", stamped, "--crl", identities.path("ca.crl"), "--tsa", url.absoluteString, "-o", lta)
        #expect(added.status == 0 && added.text == "validation data and a document timestamp added into \(lta)\n", "\(added.stderr)")
        let verified = try await hostapp("signatures", "--verify", "--trust", identities.path("ca.pem"), "--json", lta)
        let verdicts = try #require(try JSONSerialization.jsonObject(with: verified.stdout) as? [[String: Any]])
        #expect(verdicts.map { $0["field"] as? String } == ["Signature1", "Timestamp1"] && verdicts.allSatisfy { $0["verdict"] as? String == "valid" })
        let codes = (verdicts.first?["reasons"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
        #expect(codes?.contains("timestamped") == true)
        #expect(try await SigningIdentities.pyHankoSecurityStore(lta)?.crls.count == 1)
        let refused = try await hostapp("ltv", stamped, "--tsa", "ftp://example.org/", "-o", identities.path("refused.pdf"))
        #expect(refused.status == 64 && !FileManager.default.fileExists(atPath: identities.path("refused.pdf")))
    }

    /// `forms list` prints each field as the API reads it, in text and JSON, alike on both engines.
    @Test func formsListIsTheSameOnBothEngines() async throws {
        let outputs = try await ["mupdf", "poppler"].asyncMap { try await hostapp("--renderer", $0, "forms", "list", Fixtures.path("forms.pdf")) }
        #expect(outputs.allSatisfy { $0.status == 0 } && outputs[0].text == outputs[1].text, "\(outputs.map(\.stderr))")
        #expect(outputs[0].text.contains("id  text = 42  [read-only, required]\n  widget: page 1 at 320,72 80x20\n"))
        #expect(outputs[0].text.contains("country  comboBox = de  [editable]\n  options: fr (France), de (Germany)\n"))
        let json = try await hostapp("forms", "list", "--json", Fixtures.path("forms.pdf"))
        let fields = try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
        #expect(fields?.count == 11 && fields?.first?["name"] as? String == "name" && fields?.first?["kind"] as? String == "text")
        #expect(try await hostapp("forms", "list", Fixtures.path("text.pdf")).text == "(no form fields)\n")
    }

    /// `info --set` writes the Info dictionary and the XMP packet, saves (over the input, or
    /// to -o) and shows what it wrote; a bad setting changes nothing.
    @Test(arguments: ["mupdf", "poppler"])
    func infoSetWritesTheMetadata(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.pdf").path, output = directory.appendingPathComponent("out.pdf").path
        try FileManager.default.copyItem(atPath: Fixtures.path("metadata.pdf"), toPath: input)
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        let set = try await hostapp(
            "--renderer", backend, "info", input, "--set", "title=Set from hostapp", "--set", "author=", "--set", "modified=2025-02-03T04:05:06Z",
            "-o", output, "--json")
        #expect(set.status == 0, "\(set.stderr)")
        let shown = try JSONSerialization.jsonObject(with: set.stdout) as? [String: Any]
        let info = shown?["info"] as? [String: Any]
        #expect(shown?["file"] as? String == output && info?["title"] as? String == "Set from hostapp" && info?["author"] == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original, "-o leaves the input alone")
        let pdfinfo = try await Tool.run("pdfinfo", ["-isodates", "-meta", output]).text
        #expect(pdfinfo.contains("Set from hostapp</rdf:li>") && !pdfinfo.contains("Ada Lovelace"))
        #expect(try await Tool.run("pdfinfo", ["-isodates", output]).text.contains("ModDate:         2025-02-03T04:05:06Z"))

        let inPlace = try await hostapp("--renderer", backend, "info", input, "--set", "keywords=in place")
        #expect(inPlace.status == 0 && inPlace.text.contains("Keywords:     in place"), "\(inPlace.stderr)")
        let afterInPlace = try Data(contentsOf: URL(fileURLWithPath: input))
        for bad in [["--set", "colour=red"], ["--set", "created=last week"], ["--set", "title"], ["-o", output]] {
            let refused = try await Tool.run(Self.executable, ["--renderer", backend, "info", input] + bad)
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == afterInPlace)
    }

    @Test(arguments: ["mupdf", "poppler"])
    func renderWritesOneFilePerPage(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await hostapp("--renderer", backend, "render", Fixtures.path("text.pdf"), "--pages", "1,3", "--dpi", "72", "--format", "ppm", "-o", directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == ["text-1.ppm", "text-3.ppm"])
        let image = try Netpbm(Data(contentsOf: directory.appendingPathComponent("text-3.ppm")))
        #expect((image.width, image.height, image.channels) == (612, 792, 3))
        #expect(result.stderr.contains("page 3: ") && result.stdout.isEmpty, "what was written is progress, on stderr")
    }

    /// `render --no-annotations` writes the page's content alone: the pixels the library
    /// draws with `RenderOptions.annotations` off, other than those of the default render.
    @Test(arguments: ["mupdf", "poppler"])
    func renderWithoutAnnotations(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = Fixtures.path("annotations.pdf")
        for (name, extra) in [("with", [String]()), ("without", ["--no-annotations"])] {
            let result = try await Tool.run(
                HostAppTests.executable, ["--renderer", backend, "render", file, "--dpi", "72", "--format", "ppm", "-o", directory.appendingPathComponent("\(name)-%d.ppm").path] + extra)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let with = try Netpbm(Data(contentsOf: directory.appendingPathComponent("with-1.ppm")))
        let without = try Netpbm(Data(contentsOf: directory.appendingPathComponent("without-1.ppm")))
        var options = RenderOptions(dpi: 72)
        options.annotations = false
        let drawn = try await Fixtures.registry.open(.file(file), renderer: .id(backend)).render(pageAt: 0, options: options)
        let drawnAlike = without.pixels == drawn.bytes, annotationsShow = with.pixels != without.pixels
        #expect(drawnAlike, "--no-annotations differs from the library's drawing without annotations")
        #expect(annotationsShow, "the default render shows no annotation")
    }

    /// `render --box` draws the box asked for; Poppler cannot draw past the crop box and says so.
    @Test func renderDrawsTheBoxAskedFor() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = Fixtures.path("boxes.pdf")
        for backend in ["mupdf", "poppler"] {
            let result = try await hostapp("--renderer", backend, "render", file, "--pages", "1", "--box", "trim", "--dpi", "72", "--format", "ppm",
                                     "-o", directory.appendingPathComponent("\(backend)-%d.ppm").path)
            #expect(result.status == 0, "\(result.stderr)")
            let image = try Netpbm(Data(contentsOf: directory.appendingPathComponent("\(backend)-1.ppm")))
            #expect((image.width, image.height) == (520, 700))
        }
        let media = try await hostapp("--renderer", "poppler", "render", file, "--pages", "1", "--box", "media", "-o", directory.path)
        #expect(media.status == 65 && media.stderr.contains("crop box"), "\(media.stderr)")
        let wrong = try await hostapp("render", file, "--box", "page", "-o", directory.path)
        #expect(wrong.status == 64)
    }

    @Test func renderPatternFormatsAndClip() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pattern = directory.appendingPathComponent("p%03d.pam").path
        let gray = try await hostapp("render", Fixtures.path("colors.pdf"), "--format", "pam", "--gray", "--clip", "72,72,144,144", "--dpi", "150", "-o", pattern)
        #expect(gray.status == 0, "\(gray.stderr)")
        let image = try Netpbm(Data(contentsOf: directory.appendingPathComponent("p001.pam")))
        #expect((image.width, image.height, image.channels) == (300, 300, 1))
        #expect(Set(image.pixels).count == 1 && abs(Int(image.pixels[0]) - 76) <= 1)  // red as luminance

        let png = try await hostapp("render", Fixtures.path("colors.pdf"), "--alpha", "-o", directory.appendingPathComponent("a-%d.png").path)
        #expect(png.status == 0)
        let decoded = try await Netpbm(Tool.run("pngtopam", ["-alphapam", directory.appendingPathComponent("a-1.png").path]).stdout)
        #expect(decoded.channels == 4 && decoded.pixels[3] == 0)
    }

    @Test func errorsHaveClearMessagesAndExitCodes() async throws {
        let cases: [(arguments: [String], status: Int32, says: String)] = [
            (["info", Fixtures.path("encrypted.pdf")], 65, "password is needed"),
            (["--password", "wrong", "info", Fixtures.path("encrypted.pdf")], 65, "neither its user nor its owner password"),
            (["info", Fixtures.path("truncated.pdf")], 65, "damaged"),
            (["info", Fixtures.path("not-a-pdf.pdf")], 65, "is not a PDF"),
            (["info", Fixtures.path("no-such.pdf")], 74, "no such file"),
            (["render", Fixtures.path("text.pdf"), "--pages", "4", "-o", "/tmp"], 64, "page 4 does not exist"),
            (["render", Fixtures.path("text.pdf"), "--gray", "--alpha"], 64, "exclude each other"),
            (["render", Fixtures.path("text.pdf"), "--dpi", "100000", "-o", "/tmp"], 64, "more than the limit"),
            (["render", Fixtures.path("text.pdf"), "-o", "/proc/no/such/%d.png"], 74, "cannot write"),
            (["--renderer", "nope", "info", Fixtures.path("text.pdf")], 64, "no renderer named 'nope'"),
            (["--cache-mib", "0", "info", Fixtures.path("text.pdf")], 64, "--cache-mib must be between"),
        ]
        for (arguments, status, says) in cases {
            let result = try await Tool.run(Self.executable, arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(says), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments) printed to stdout")
        }
    }

    /// encrypted.pdf's user password is "user-secret": from a file (its first line), from
    /// standard input, or from HOSTAPP_PASSWORD, it opens the document as --password does.
    @Test func passwordFromAFileStandardInputOrTheEnvironment() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("password").path
        try Data("user-secret\nnot this line\n".utf8).write(to: URL(fileURLWithPath: file))
        let encrypted = Fixtures.path("encrypted.pdf")
        let expected = try await hostapp("--password", "user-secret", "info", "--json", encrypted)
        #expect(expected.status == 0)
        #expect(try await hostapp("--password-file", file, "info", "--json", encrypted).stdout == expected.stdout)
        #expect(try await hostapp("info", "--json", encrypted, environment: ["HOSTAPP_PASSWORD": "user-secret"]).stdout == expected.stdout)
        let piped = try await Tool.run("sh", ["-c", "printf 'user-secret\\n' | \"$0\" --password-file - info --json \"$1\"", Self.executable, encrypted])
        #expect(piped.stdout == expected.stdout)
        let missing = try await hostapp("--password-file", directory.appendingPathComponent("none").path, "info", encrypted)
        #expect(missing.status == 74)
        #expect(missing.stderr.contains("cannot read the password file"))
        let both = try await hostapp("--password", "x", "--password-file", file, "info", encrypted)
        #expect(both.status == 64)
        #expect(both.stderr.contains("exclude each other"))
    }

    @Test func passwordIsNeverEchoed() async throws {
        let result = try await hostapp("--password", "s3cret-Value", "--log-level", "trace", "info", Fixtures.path("encrypted.pdf"))
        #expect(result.status == 65)
        #expect(!result.stderr.contains("s3cret-Value") && !result.text.contains("s3cret-Value"))
        let fromEnvironment = try await hostapp("--log-level", "trace", "info", Fixtures.path("encrypted.pdf"), environment: ["HOSTAPP_PASSWORD": "s3cret-Value"])
        #expect(fromEnvironment.status == 65)
        #expect(!fromEnvironment.stderr.contains("s3cret-Value") && !fromEnvironment.text.contains("s3cret-Value"))
    }
}

/// The command line's conventions: global options before or after the command, parsed by
/// the parser itself; `--version`; `-r`; `N` for the last page; completions.
@Suite("hostapp command-line conventions")
struct CommandLineTests {
    func hostapp(_ arguments: String...) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    /// The value of a global option is never taken for a command, even when it is a
    /// command's name: this once ran `render` with the password `info`.
    @Test func anOptionsValueNamedLikeACommandIsAValue() async throws {
        let encrypted = Fixtures.path("encrypted.pdf")
        let wrong = try await hostapp("--password", "render", "info", encrypted)
        #expect(wrong.status == 65 && wrong.stderr.contains("neither its user nor its owner password"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("page 1:"), "render did not run")
        let right = try await hostapp("--password", "user-secret", "info", encrypted)
        #expect(right.status == 0 && right.text.contains("Pages:        3"))
    }

    @Test func globalOptionsStandBeforeOrAfterTheCommandAndAfterWins() async throws {
        let file = Fixtures.path("text.pdf")
        #expect(try await hostapp("--backend", "poppler", "info", file).text.contains("Renderer:     poppler"))
        #expect(try await hostapp("info", "--renderer", "poppler", file).text.contains("Renderer:     poppler"))
        #expect(try await hostapp("--renderer", "poppler", "info", "--renderer", "mupdf", file).text.contains("Renderer:     mupdf"))
        #expect(try await hostapp("--renderer", "poppler", "annotations", "list", Fixtures.path("annotations.pdf")).status == 0, "before a nested command too")
        let bad = try await hostapp("--cache-mib", "0", "info", file)
        #expect(bad.status == 64 && bad.stderr.contains("--cache-mib"), "options before the command are validated too")
    }

    @Test func versionNamesTheProjectAndTheEngines() async throws {
        let result = try await hostapp("--version")
        #expect(result.status == 0)
        #expect(result.text.hasPrefix("hostapp 0.") && result.text.contains("MuPDF 1.21") && result.text.contains("Poppler 22.12"), "\(result.text)")
        #expect(result.text.contains("Ghostscript 10.00.0"), "\(result.text)")
    }

    @Test func shortResolutionAndTheLastPage() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await hostapp("render", Fixtures.path("text.pdf"), "-r", "36", "--pages", "2-N", "-o", directory.path + "/")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["text-2.png", "text-3.png"])
        #expect(result.stderr.contains("306x396"), "36 dpi: 612 x 792 points at half size")
        #expect(try await hostapp("text", Fixtures.path("text.pdf"), "--pages", "N").text.contains("Third page"))
    }

    @Test func completionsOfferFilesAndRenderers() async throws {
        let script = try await hostapp("--generate-completion-script", "bash")
        #expect(script.status == 0)
        #expect(script.text.contains("'mupdf'$'\\n''poppler'$'\\n''ghostscript'$'\\n''auto'"), "renderer names")
        #expect(script.text.contains("'!*.@(pdf)'"), "PDF files")
    }
}
