import Foundation
import Testing
import TestSupport

/// `hostapp` serves the reading commands with MuPDF itself (named, or as `auto` while MuPDF
/// opens the file whole) and hands every other run to `hostapp-full` beside it. These run a copy of `hostapp` in a folder of its own, without
/// `hostapp-full`: what it serves alone then works, and what it hands off fails clearly.
@Suite("hostapp and hostapp-full")
struct HandOffTests {
    static let directory = URL(fileURLWithPath: HostAppTests.executable).deletingLastPathComponent()
    static let full = directory.appendingPathComponent("hostapp-full").path

    /// A copy of `hostapp` alone in a new folder, and that folder. `cp` writes the copy in a
    /// process of its own: written from this process, a child another test forks meanwhile
    /// would inherit the open file, and running the copy would fail with "text file busy".
    func lonelyHostApp() async throws -> (executable: String, folder: URL) {
        let folder = try Tool.temporaryDirectory()
        let executable = folder.appendingPathComponent("hostapp").path
        let copied = try await Tool.run("cp", [HostAppTests.executable, executable])
        guard copied.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: copied.stderr]) }
        return (executable, folder)
    }

    /// hostapp's own executable needs no Poppler library: a MuPDF run never maps them. Nor
    /// does it need full Foundation (CoreFoundation and ICU, a third of a thumbnail's start):
    /// the modules it links import FoundationEssentials only.
    @Test func hostappLinksNoPopplerLibraryNorFullFoundation() async throws {
        let needed = try await Tool.run("readelf", ["-d", HostAppTests.executable]).text
        #expect(needed.contains("(NEEDED)"), "\(needed)")
        #expect(!needed.contains("poppler") && !needed.contains("cairo") && !needed.contains("glib"), "\(needed)")
        #expect(needed.contains("libFoundationEssentials.so"), "\(needed)")
        #expect(!needed.contains("libFoundation.so") && !needed.contains("FoundationInternationalization") && !needed.contains("ICU"), "\(needed)")
        #expect(try await Tool.run("readelf", ["-d", Self.full]).text.contains("libpoppler-glib"))
    }

    /// With MuPDF named, every reading command runs in hostapp alone and prints what
    /// hostapp-full prints, byte for byte (files too).
    @Test func theReadingCommandsRunAloneAndEqualHostappFull() async throws {
        let (lonely, folder) = try await lonelyHostApp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("outline.pdf")
        let commands: [[String]] = [
            ["info", file], ["info", "--json", "--boxes", file], ["text", file], ["search", file, "Outline"],
            ["outline", file], ["links", file, "--json"],
        ]
        for command in commands {
            let alone = try await Tool.run(lonely, ["--backend", "mupdf"] + command)
            let full = try await Tool.run(Self.full, ["--backend", "mupdf"] + command)
            #expect(alone.status == 0 && alone.status == full.status, "\(command): \(alone.stderr)")
            #expect(alone.stdout == full.stdout && !alone.stdout.isEmpty, "\(command)")
        }
        // HOSTAPP_BACKEND names it as well as --backend; the pages equal hostapp-full's.
        let render = try await Tool.run(lonely, ["render", file, "-r", "30", "-o", folder.appendingPathComponent("a-%d.png").path], environment: ["HOSTAPP_BACKEND": "mupdf"])
        #expect(render.status == 0, "\(render.stderr)")
        let fullRender = try await Tool.run(Self.full, ["--backend", "mupdf", "render", file, "-r", "30", "-o", folder.appendingPathComponent("b-%d.png").path])
        #expect(fullRender.status == 0)
        for page in 1...4 {  // outline.pdf's pages
            let ours = try Data(contentsOf: folder.appendingPathComponent("a-\(page).png"))
            let theirs = try Data(contentsOf: folder.appendingPathComponent("b-\(page).png"))
            #expect(ours == theirs, "page \(page)")
        }
        // Errors keep their codes and messages.
        let missing = try await Tool.run(lonely, ["--backend", "mupdf", "info", "/nonexistent.pdf"])
        let fullMissing = try await Tool.run(Self.full, ["--backend", "mupdf", "info", "/nonexistent.pdf"])
        #expect(missing.status == 74 && missing.stderr == fullMissing.stderr, "\(missing.stderr)")
    }

    /// Every run hostapp cannot serve alone goes to hostapp-full before anything is read or
    /// written: without it, each fails with exit 74 naming it, and writes nothing.
    @Test func everyOtherRunIsHandedToHostappFull() async throws {
        let (lonely, folder) = try await lonelyHostApp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("outline.pdf")
        let output = folder.appendingPathComponent("out").path
        let runs: [[String]] = [
            ["--backend", "poppler", "render", file, "-o", output],
            ["--renderer", "poppler", "render", file, "-o", output],
            ["--renderer=poppler", "render", file, "-o", output],
            ["--backend", "mupdf", "--isolate", "render", file, "-o", output],
            ["--backend", "mupdf", "--vault", folder.path, "--key-file", file, "info", "x.pdf"],
            ["--backend", "mupdf", "annotations", "list", file],
            ["--backend", "mupdf", "info", file, "--set", "title=Handed off", "-o", output],  // the XMP writer is hostapp-full's
            ["--backend", "mupdf", "backends"],
            ["--renderer", "mupdf", "renderers"],
            ["--help"], ["--version"], ["--backend", "mupdf", "render"],  // help, version, usage errors
        ]
        for arguments in runs {
            let result = try await Tool.run(lonely, arguments)
            #expect(result.status == 74 && result.stderr.contains("hostapp-full"), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// `auto`, the default, is served alone while MuPDF opens the file whole, with the output
    /// hostapp-full gives; a file MuPDF reads as no pages, cannot open, has to repair or
    /// wants a password for is handed to hostapp-full (missing here: exit 74, nothing
    /// written), where Poppler gets its turn.
    @Test func autoIsServedAloneWhileMuPDFOpensTheFileWhole() async throws {
        let (lonely, folder) = try await lonelyHostApp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("outline.pdf")
        for command in [["info", file], ["text", file], ["search", file, "Outline"], ["outline", file]] {
            let alone = try await Tool.run(lonely, command)
            let full = try await Tool.run(Self.full, command)
            #expect(alone.status == 0 && alone.stdout == full.stdout && !alone.stdout.isEmpty, "\(command): \(alone.stderr)")
        }
        // text.pdf with its startxref broken: MuPDF repairs it and opens it, but not here.
        let text = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf")))
        let cut = try #require(text.range(of: Data("startxref".utf8))).lowerBound
        let repaired = folder.appendingPathComponent("repaired.pdf")
        try (text[..<cut] + Data("startxref\n1\n%%EOF\n".utf8)).write(to: repaired)
        #expect(try await Tool.run(Self.full, ["--backend", "mupdf", "info", repaired.path]).status == 0)
        let output = folder.appendingPathComponent("out").path
        let handedOff = ["xref-loop.pdf", "poppler-only.pdf", "encrypted.pdf"].map(Fixtures.path) + [repaired.path]
        for path in handedOff {
            let result = try await Tool.run(lonely, ["render", path, "-o", output])
            #expect(result.status == 74 && result.stderr.contains("hostapp-full"), "\(path): \(result.stderr)")
            #expect(result.stdout.isEmpty && !FileManager.default.fileExists(atPath: output), "\(path)")
        }
        // Beside hostapp-full, the same runs are served as auto serves them.
        let served = try await Tool.run(HostAppTests.executable, ["info", Fixtures.path("xref-loop.pdf")])
        #expect(served.status == 0 && served.text.contains("Renderer:     poppler") && served.text.contains("Pages:        30"), "\(served.stderr)")
    }

    /// A file manager's call, `thumbnail -s SIZE INPUT OUTPUT`, is read without the command
    /// parser: it writes the PNG every other spelling of the command writes, byte for byte,
    /// and hands off, fails and exits as they do (a backend hostapp lacks, a file MuPDF
    /// repairs, a missing file, a size out of range).
    @Test func theThumbnailersCallIsTheCommandsOwnRun() async throws {
        let (lonely, folder) = try await lonelyHostApp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("outline.pdf")
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        #expect(try await Tool.run(lonely, ["thumbnail", "-s", "96", file, path("call.png")]).status == 0)
        #expect(try await Tool.run(lonely, ["thumbnail", file, path("parsed.png"), "-s", "96"]).status == 0)
        #expect(try await Tool.run(Self.full, ["--backend", "mupdf", "thumbnail", "-s", "96", file, path("full.png")]).status == 0)
        let call = try Data(contentsOf: URL(fileURLWithPath: path("call.png")))
        let parsed = try Data(contentsOf: URL(fileURLWithPath: path("parsed.png")))
        let full = try Data(contentsOf: URL(fileURLWithPath: path("full.png")))
        #expect(!call.isEmpty && call == parsed && call == full)

        let poppler = try await Tool.run(lonely, ["thumbnail", "-s", "96", file, path("poppler.png")], environment: ["HOSTAPP_BACKEND": "poppler"])
        #expect(poppler.status == 74 && poppler.stderr.contains("hostapp-full"), "\(poppler.stderr)")
        let repairable = try await Tool.run(lonely, ["thumbnail", "-s", "96", Fixtures.path("xref-loop.pdf"), path("repaired.png")])
        #expect(repairable.status == 74 && repairable.stderr.contains("hostapp-full"), "\(repairable.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("poppler.png")) && !FileManager.default.fileExists(atPath: path("repaired.png")))

        let missing = try await Tool.run(lonely, ["thumbnail", "-s", "96", "/nonexistent.pdf", path("missing.png")])
        let parsedMissing = try await Tool.run(lonely, ["thumbnail", "/nonexistent.pdf", path("missing.png"), "-s", "96"])
        #expect(missing.status == 74 && missing.stderr == parsedMissing.stderr && missing.status == parsedMissing.status, "\(missing.stderr)")
        let served = try await Tool.run(HostAppTests.executable, ["thumbnail", "-s", "96", Fixtures.path("xref-loop.pdf"), path("served.png")])
        #expect(served.status == 0 && FileManager.default.fileExists(atPath: path("served.png")), "\(served.stderr)")
        let tooLarge = try await Tool.run(HostAppTests.executable, ["thumbnail", "-s", "4097", file, path("large.png")])
        #expect(tooLarge.status == 64 && tooLarge.stderr.contains("-s must be from 1 to 4096"), "\(tooLarge.stderr)")
    }

    /// Handed off, a run is hostapp-full's in every way: same process, so the exit codes of
    /// usage errors and the help are its own.
    @Test func aHandedOffRunIsHostappFulls() async throws {
        let version = try await Tool.run(HostAppTests.executable, ["--version"])
        #expect(version.status == 0 && version.text.contains("MuPDF 1.21") && version.text.contains("Poppler 22.12"), "\(version.text)")
        let help = try await Tool.run(HostAppTests.executable, ["--help"])
        #expect(help.status == 0 && help.text.contains("serve") && help.text.contains("render"))
        let usage = try await Tool.run(HostAppTests.executable, ["--backend", "mupdf", "render"])
        #expect(usage.status == 64 && usage.stderr.contains("Missing expected argument"), "\(usage.stderr)")
    }
}
