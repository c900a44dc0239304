import Foundation
import RendererProvider
import Testing
import TestSupport

/// The PDF's permissions on the command line's exports, with or without --settings: a PDF
/// that forbids copying gives no text (plain, JSON, Markdown, HTML), no diff and no images, and its
/// owner password lifts that, while search (reading) still works; a PDF that forbids printing
/// is not rendered to image files; settings that forbid copying refuse the text of any PDF.
/// Nothing is written where a command was refused.
@Suite("Copying and printing permissions on the command line")
struct CopyingPermissionTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    @Test func exportsHonourThePDFsPermissions() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // text.pdf with copying forbidden (printing allowed), by qpdf.
        let locked = folder.appendingPathComponent("locked.pdf").path
        #expect(try await Tool.run("qpdf", ["--encrypt", "", "owner-secret", "256", "--extract=n", "--", Fixtures.path("text.pdf"), locked]).status == 0)
        let witness = try await Tool.run("qpdf", ["--show-encryption", locked])
        #expect(String(decoding: witness.stdout, as: UTF8.self).contains("extract for any purpose: not allowed"))

        for format in ["plain", "json", "markdown", "html"] {
            let output = folder.appendingPathComponent("out-\(format).txt").path
            let refused = try await hostapp(["text", "--format", format, "-o", output, locked])
            #expect(refused.status == 77 && refused.stderr.contains("permission copy"), "\(format): \(refused.status) \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(format)")
        }
        let owner = try await hostapp(["text", "--password", "owner-secret", locked])
        let plain = try await hostapp(["text", Fixtures.path("text.pdf")])
        #expect(owner.status == 0 && !owner.stdout.isEmpty && owner.stdout == plain.stdout, "\(owner.stderr)")
        let search = try await hostapp(["search", locked, "the"])
        #expect(search.status == 0 && !search.stdout.isEmpty, "\(search.stderr)")
        let diff = try await hostapp(["diff", Fixtures.path("text.pdf"), locked, "--html", folder.path + "/report"])
        #expect(diff.status == 77 && diff.stderr.contains("permission copy") && diff.stdout.isEmpty, "\(diff.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/report"))
        let images = try await hostapp(["images", "extract", locked, "-o", folder.path + "/images"])
        #expect(images.status == 77 && images.stderr.contains("permission copy"), "\(images.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/images"))

        // restricted.pdf forbids printing: no page images, unless its owner password is given.
        let render = try await hostapp(["render", Fixtures.path("restricted.pdf"), "-o", folder.path + "/pages"])
        #expect(render.status == 77 && render.stderr.contains("permission print"), "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/pages"))
        let rendered = try await hostapp(["render", "--password", "owner-secret", Fixtures.path("restricted.pdf"), "-o", folder.path + "/owner"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let text = try await hostapp(["text", Fixtures.path("restricted.pdf")])
        #expect(text.status == 0, "copying is allowed there: \(text.stderr)")

        // Settings that forbid copying refuse the text of a PDF that allows it.
        let settings = folder.appendingPathComponent("settings.json")
        try Data(#"{"copying": false}"#.utf8).write(to: settings)
        let bySettings = try await hostapp(["--settings", settings.path, "text", Fixtures.path("text.pdf")])
        #expect(bySettings.status == 77 && bySettings.stderr.contains("setting copying") && bySettings.stdout.isEmpty, "\(bySettings.stderr)")
    }
}
