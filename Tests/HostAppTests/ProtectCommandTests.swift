import Foundation
import RendererProvider
import Testing
import TestSupport

/// `hostapp protect` and `unprotect`: copies with passwords and permissions, and without,
/// as qpdf, pdfinfo and pdftotext (the witnesses) read them; an owner's permissions are not
/// removed by someone who has only the user password, and bad requests write nothing.
@Suite("hostapp protect and unprotect")
struct ProtectCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    /// qpdf's account of `path`'s encryption, read with `password`.
    func encryption(_ path: String, password: String) async throws -> String {
        try await Tool.run("qpdf", ["--show-encryption", "--password=\(password)", path]).text
    }

    /// AES-256 (revision 6) by default, with exactly the permissions asked for; pdfinfo opens
    /// the copy with either password and not without; its text is the original's. The
    /// passwords come from files, and the copy is written the same isolated or not.
    @Test(arguments: [[], ["--isolate"]])
    func aProtectedCopyHasThePasswordsAndPermissionsAsked(extra: [String]) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let owner = directory.appendingPathComponent("owner.txt").path, output = directory.appendingPathComponent("out.pdf").path
        try Data("Ownér-secret\n".utf8).write(to: URL(fileURLWithPath: owner))
        let protected = try await hostapp(extra + [
            "protect", Fixtures.path("text.pdf"), "--owner-password-file", owner, "--user-password", "reader", "--allow", "print,copy", "-o", output,
        ])
        #expect(protected.status == 0, "\(protected.stderr)")
        #expect(protected.text.contains("AES-256") && protected.text.contains("print, copy"), "\(protected.text)")
        let shown = try await encryption(output, password: "Ownér-secret")
        #expect(shown.contains("R = 6") && shown.contains("stream encryption method: AESv3"), "\(shown)")
        #expect(shown.contains("Supplied password is owner password"), "\(shown)")
        for line in [
            "print low resolution: allowed", "extract for any purpose: allowed", "print high resolution: not allowed",
            "modify annotations: not allowed", "modify document assembly: not allowed", "modify forms: not allowed",
            "extract for accessibility: not allowed",
        ] {
            #expect(shown.contains(line), "\(line): \(shown)")
        }
        #expect(try await Tool.run("pdfinfo", [output]).status != 0)
        let info = try await Tool.run("pdfinfo", ["-upw", "reader", output])
        #expect(info.status == 0 && info.text.contains("yes (print:yes copy:yes change:no addNotes:no algorithm:AES-256)"), "\(info.text)")
        #expect(try await Tool.run("pdfinfo", ["-opw", "Ownér-secret", output]).status == 0)
        let original = try await Tool.run("pdftotext", [Fixtures.path("text.pdf"), "-"]).text
        #expect(try await Tool.run("pdftotext", ["-upw", "reader", output, "-"]).text == original)
    }

    /// AES-128 on request is revision 4; no user password opens the copy without one, and
    /// `--allow` defaults to reading for accessibility alone.
    @Test func aes128OnRequestAndAnEmptyUserPassword() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.pdf").path
        let protected = try await hostapp(["protect", Fixtures.path("colors.pdf"), "--owner-password", "o", "--method", "aes-128", "-o", output])
        #expect(protected.status == 0, "\(protected.stderr)")
        let shown = try await encryption(output, password: "")
        #expect(shown.contains("R = 4") && shown.contains("stream encryption method: AESv2"), "\(shown)")
        #expect(shown.contains("extract for accessibility: allowed") && shown.contains("print low resolution: not allowed"), "\(shown)")
        let info = try await Tool.run("pdfinfo", [output])
        #expect(info.status == 0 && info.text.contains("algorithm:AES"), "\(info.text)")
    }

    /// With the owner password the copy has no encryption and the same text; with only the
    /// user password of a document that forbids changes, it is refused and nothing is written.
    @Test func unprotectNeedsTheOwnersPassword() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("plain.pdf").path
        let refused = try await hostapp(["unprotect", Fixtures.path("encrypted.pdf"), "--password", "user-secret", "-o", output])
        #expect(refused.status == 77 && refused.stderr.contains("does not permit changing its password protection"), "\(refused.status) \(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let restricted = try await hostapp(["unprotect", Fixtures.path("restricted.pdf"), "-o", output])
        #expect(restricted.status == 77, "\(restricted.stderr)")
        let plain = try await hostapp(["unprotect", Fixtures.path("encrypted.pdf"), "--password", "owner-secret", "-o", output])
        #expect(plain.status == 0, "\(plain.stderr)")
        let info = try await Tool.run("pdfinfo", [output])
        #expect(info.status == 0 && info.text.split(separator: "\n").contains { $0.hasPrefix("Encrypted:") && $0.hasSuffix(" no") }, "\(info.text)")
        let original = try await Tool.run("pdftotext", ["-opw", "owner-secret", Fixtures.path("encrypted.pdf"), "-"]).text
        #expect(try await Tool.run("pdftotext", [output, "-"]).text == original)
    }

    /// Requests that cannot be met are refused with the usual exit codes and write nothing:
    /// no owner password, one equal to the user password, an unknown permission, a password
    /// past 127 bytes, Poppler and Ghostscript (no encrypting writer), the settings without
    /// saveTo, and the input itself as the output (left as it was).
    @Test func badRequestsWriteNothing() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.pdf").path
        let input = directory.appendingPathComponent("in.pdf").path
        try FileManager.default.copyItem(atPath: Fixtures.path("text.pdf"), toPath: input)
        let settings = directory.appendingPathComponent("settings.json").path
        try Data(#"{"saveTo": {"available": false}}"#.utf8).write(to: URL(fileURLWithPath: settings))
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["protect", input, "-o", output], 64, "give the owner password"),
            (["protect", input, "--owner-password", "same", "--user-password", "same", "-o", output], 64, "must differ"),
            (["protect", input, "--owner-password", "o", "--allow", "print,teleport", "-o", output], 64, "unknown permission teleport"),
            (["protect", input, "--owner-password", String(repeating: "x", count: 128), "-o", output], 64, "at most 127 bytes"),
            (["--renderer", "poppler", "protect", input, "--owner-password", "o", "-o", output], 65, "Poppler cannot protect"),
            (["--renderer", "ghostscript", "unprotect", input, "-o", output], 65, "ghostscript: Ghostscript cannot"),
            (["--settings", settings, "protect", input, "--owner-password", "o", "-o", output], 77, "setting saveTo"),
            (["protect", input, "--owner-password", "o", "-o", input], 64, "cannot be saved over the file"),
        ]
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        for (arguments, status, message) in cases {
            let result = try await hostapp(arguments)
            #expect(result.status == status && result.stderr.contains(message), "\(arguments): \(result.status) \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["in.pdf", "settings.json"])
    }
}
