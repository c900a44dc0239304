import Foundation
import Testing
import TestSupport

/// What users of mutool and pdftoppm type, read as they mean it: an image file name for one
/// page, `-o -` for standard output, ranges written backwards, JPEG with a quality, a size in
/// pixels, progress on stderr, and a vault made by its first file.
@Suite("Command-line habits")
struct CommandLineHabitsTests {
    func hostapp(_ arguments: String...) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    /// `-o page.png` with one page writes that file (the bytes a directory run writes for the
    /// page); with several pages it is a usage error and nothing is written. An existing
    /// directory with such a name is still a directory.
    @Test func anImageFileNameTakesOnePage() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("text.pdf")
        let page = folder.appendingPathComponent("page.png").path
        let one = try await hostapp("render", file, "--pages", "2", "-r", "36", "-o", page)
        #expect(one.status == 0 && one.stdout.isEmpty && one.stderr.contains("page 2: \(page) (306x396)"), "\(one.stderr)")
        let inFolder = folder.appendingPathComponent("pages").path
        #expect(try await hostapp("render", file, "--pages", "2", "-r", "36", "-o", inFolder).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: page)) == Data(contentsOf: URL(fileURLWithPath: inFolder + "/text-2.png")))

        let several = folder.appendingPathComponent("all.png").path
        let refused = try await hostapp("render", file, "-o", several)
        #expect(refused.status == 64 && refused.stderr.contains("takes one page and 3 are selected") && refused.stderr.contains("all-%d.png"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: several))

        let directory = folder.appendingPathComponent("kept.png")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        #expect(try await hostapp("render", file, "-r", "20", "-o", directory.path).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["text-1.png", "text-2.png", "text-3.png"])
    }

    /// Page files in a directory are numbered to the width of the document's page count, so
    /// that they list in page order (`long-001.png` ... `long-100.png`, text as render); a
    /// pattern's own `%03d` still wins.
    @Test func pageFilesSortInPageOrder() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("long.pdf")
        let images = folder.appendingPathComponent("images").path
        let rendered = try await hostapp("render", file, "--pages", "1,9,10,100", "-r", "10", "-o", images)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: images).sorted() == ["long-001.png", "long-009.png", "long-010.png", "long-100.png"])
        let texts = folder.appendingPathComponent("texts").path
        #expect(try await hostapp("text", file, "--pages", "2,10", "-o", texts).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: texts).sorted() == ["long-002.txt", "long-010.txt"])
        let pattern = folder.appendingPathComponent("p-%02d.png").path
        #expect(try await hostapp("render", file, "--pages", "3", "-r", "10", "-o", pattern).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("p-03.png").path))
    }

    /// A subcommand's help lists its own options before the global ones.
    @Test func helpShowsACommandsOwnOptionsFirst() async throws {
        for (command, own) in [(["render"], "--dpi"), (["annotations", "add"], "--contents"), (["serve"], "--port")] {
            let help = try await Tool.run(HostAppTests.executable, command + ["--help"])
            let ownAt = try #require(help.text.range(of: own), "\(command): \(help.text)")
            let globalAt = try #require(help.text.range(of: "--cache-mib"), "\(command)")
            #expect(ownAt.lowerBound < globalAt.lowerBound, "\(command)")
        }
    }

    /// `-o -` writes the one page's image to stdout, byte for byte the file; several pages
    /// are refused. `text -o -` is the text on stdout, and `text -o all.txt` puts every page
    /// in one file, as stdout would have them.
    /// An edit saves over its input when told so (`--in-place`, as qpdf's
    /// `--replace-input`); given neither that nor -o, it still does, saying that the next
    /// release will refuse; both at once are a usage error that changes nothing.
    @Test func anEditSavesOverItsInputWhenToldSo() async throws {
        let file = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        let add = ["annotations", "add", file, "--page", "1", "--kind", "square", "--rect", "72,72,100,50"]
        let both = try await Tool.run(HostAppTests.executable, add + ["--in-place", "-o", file + ".out"])
        #expect(both.status == 64 && both.stderr.contains("--in-place"), "\(both.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
        let inPlace = try await Tool.run(HostAppTests.executable, add + ["--in-place"])
        #expect(inPlace.status == 0 && inPlace.stderr.isEmpty, "\(inPlace.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) != original)
        let unsaid = try await Tool.run(HostAppTests.executable, add)
        #expect(unsaid.status == 0 && unsaid.stderr.contains("hostapp: note: saving over the input because no -o was given"), "\(unsaid.stderr)")
        let listed = try await Tool.run("python3", ["-c", "import pypdf,sys; print(len(pypdf.PdfReader(sys.argv[1]).pages[0]['/Annots']))", file])
        #expect(listed.text == "2\n", "\(listed.stderr)")
    }

    @Test func aDashIsStandardOutput() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("text.pdf")
        let piped = try await hostapp("render", file, "--pages", "1", "-r", "30", "-o", "-")
        let written = folder.appendingPathComponent("one.png").path
        #expect(try await hostapp("render", file, "--pages", "1", "-r", "30", "-o", written).status == 0)
        let file1 = try Data(contentsOf: URL(fileURLWithPath: written))
        #expect(piped.status == 0 && piped.stdout == file1, "\(piped.stderr)")
        #expect(piped.stderr.contains("page 1: standard output"))
        let ppm = try await hostapp("render", file, "--pages", "3", "-r", "30", "--format", "ppm", "-o", "-")
        #expect(try Netpbm(ppm.stdout).width == 255)
        #expect(try await hostapp("render", file, "-o", "-").status == 64)

        let stdout = try await hostapp("text", file)
        #expect(try await hostapp("text", file, "-o", "-").stdout == stdout.stdout)
        let all = folder.appendingPathComponent("all.txt").path
        let toFile = try await hostapp("text", file, "-o", all)
        #expect(toFile.status == 0 && toFile.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: all)) == stdout.stdout)
    }

    /// Ranges written backwards select their pages in that order, as `mutool draw` takes
    /// them; one that reaches past the end is cut at the last page with a note.
    @Test func backwardRangesRunBackwards() async throws {
        let file = Fixtures.path("text.pdf")
        let pages = try await (1...3).asyncMap { try await hostapp("text", file, "--pages", "\($0)").text }
        #expect(try await hostapp("text", file, "--pages", "3-1").text == [pages[2], pages[1], pages[0]].joined(separator: "\u{0C}"))
        #expect(try await hostapp("text", file, "--pages", "N-2").text == [pages[2], pages[1]].joined(separator: "\u{0C}"))
        let past = try await hostapp("text", file, "--pages", "9-2")
        #expect(past.status == 0 && past.text == [pages[2], pages[1]].joined(separator: "\u{0C}") && past.stderr.contains("reading 3-2"), "\(past.stderr)")
        #expect(try await hostapp("text", file, "--pages", "9-5").status == 64)
    }

    /// `--format jpeg` writes baseline JPEG at the size pdftoppm -jpeg writes, whose pixels
    /// (read back by netpbm's jpegtopnm) stay near the PPM of the same page; a lower
    /// --quality makes a smaller file; a .jpg name chooses JPEG by itself. JPEG has no alpha.
    @Test func jpegAsPdftoppmWritesIt() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("colors.pdf")
        let jpeg = folder.appendingPathComponent("page.jpg").path
        #expect(try await hostapp("render", file, "--pages", "1", "-r", "50", "-o", jpeg).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: jpeg))
        #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        _ = try await Tool.run("pdftoppm", ["-jpeg", "-r", "50", "-f", "1", "-l", "1", "-singlefile", file, folder.appendingPathComponent("theirs").path])
        let ours = try Netpbm(try await Tool.run("jpegtopnm", [jpeg]).stdout)
        let theirs = try Netpbm(try await Tool.run("jpegtopnm", [folder.appendingPathComponent("theirs.jpg").path]).stdout)
        #expect((ours.width, ours.height) == (theirs.width, theirs.height))
        let exact = folder.appendingPathComponent("page.ppm").path
        #expect(try await hostapp("render", file, "--pages", "1", "-r", "50", "-o", exact).status == 0)
        let reference = try Netpbm(Data(contentsOf: URL(fileURLWithPath: exact)))
        let difference = zip(ours.pixels, reference.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(reference.pixels.count) < 4, "mean difference per sample")

        let low = folder.appendingPathComponent("low.jpg").path
        #expect(try await hostapp("render", file, "--pages", "1", "-r", "50", "--quality", "10", "-o", low).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: low)).count < bytes.count)
        #expect(try await hostapp("render", file, "--alpha", "--format", "jpeg", "-o", folder.path).status == 64)
        #expect(try await hostapp("render", file, "--quality", "0", "--format", "jpeg", "-o", folder.path).status == 64)
        #expect(try await hostapp("render", file, "--quality", "50", "-o", folder.path).status == 64, "--quality without JPEG")
    }

    /// --scale-to fits each page in a square as pdftoppm's -scale-to does (the same size);
    /// -W and -H fit a width or a height, and both a box, proportions kept.
    @Test func aSizeInPixels() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("mixed-sizes.pdf")
        func size(_ arguments: [String], page: Int = 1) async throws -> (Int, Int) {
            let result = try await Tool.run(HostAppTests.executable, ["render", file, "--pages", "\(page)", "--format", "ppm", "-o", "-"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let image = try Netpbm(result.stdout)
            return (image.width, image.height)
        }
        for page in [1, 3, 5] {
            _ = try await Tool.run("pdftoppm", ["-scale-to", "200", "-f", "\(page)", "-l", "\(page)", "-singlefile", file, folder.appendingPathComponent("p\(page)").path])
            let theirs = try Netpbm(Data(contentsOf: folder.appendingPathComponent("p\(page).ppm")))
            let ours = try await size(["--scale-to", "200"], page: page)
            #expect(ours == (theirs.width, theirs.height) && max(ours.0, ours.1) == 200, "page \(page): \(ours)")
        }
        #expect(try await size(["-W", "300"]).0 == 300)
        #expect(try await size(["-H", "100"]).1 == 100)
        let box = try await size(["-W", "100", "-H", "100"])
        #expect(max(box.0, box.1) == 100 && box.0 <= 100 && box.1 <= 100)
        #expect(try await hostapp("render", file, "--scale-to", "100", "--dpi", "72", "-o", folder.path).status == 64)
        #expect(try await hostapp("render", file, "-W", "0", "-o", folder.path).status == 64)
    }

    /// Render and text write what they did on stderr: stdout stays empty for files.
    @Test func progressGoesToStandardError() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let render = try await hostapp("render", Fixtures.path("text.pdf"), "-r", "20", "-o", folder.path)
        #expect(render.status == 0 && render.stdout.isEmpty && render.stderr.contains("page 3: "), "\(render.text)")
        let text = try await hostapp("text", Fixtures.path("text.pdf"), "-o", folder.appendingPathComponent("t-%d.txt").path)
        #expect(text.status == 0 && text.stdout.isEmpty && text.stderr.contains("page 3: "), "\(text.text)")
    }

    /// The example in `hostapp vault --help` works on a new machine: encrypt makes the vault's
    /// folder, owner-only; a missing key file makes nothing.
    @Test func theVaultHelpExampleWorksFromNothing() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("vault.key").path
        let books = folder.appendingPathComponent("books").path
        #expect(try await hostapp("vault", "key", "-o", key).status == 0)
        let sealed = try await hostapp("vault", "encrypt", Fixtures.path("text.pdf"), "--vault", books, "--key-file", key)
        #expect(sealed.status == 0 && sealed.text == "text.pdf\n", "\(sealed.stderr)")
        let permissions = try FileManager.default.attributesOfItem(atPath: books)[.posixPermissions] as? Int
        #expect(permissions == 0o700)
        let read = try await hostapp("text", "text.pdf", "--vault", books, "--key-file", key)
        let plain = try await hostapp("text", Fixtures.path("text.pdf"))
        #expect(read.status == 0 && read.text == plain.text)
        let other = folder.appendingPathComponent("other").path
        let noKey = try await hostapp("vault", "encrypt", Fixtures.path("text.pdf"), "--vault", other, "--key-file", key + ".missing")
        #expect(noKey.status == 74 && !FileManager.default.fileExists(atPath: other), "\(noKey.stderr)")
    }

    /// A file a command writes over keeps its permissions: an extracted text, attachment or
    /// annotation export replacing a file only its owner may read stays so. (Foundation's
    /// atomic write, which these commands used, replaced a 0600 file by a 0644 one.)
    @Test func filesWrittenOverKeepTheirPermissions() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = folder.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        let outputs = [path("all.txt"), path("page-1.txt"), path("notes.json"), files.appendingPathComponent("notes.txt").path]
        for output in outputs {
            try Data("private".utf8).write(to: URL(fileURLWithPath: output))
            #expect(chmod(output, 0o600) == 0)
        }
        let runs = [
            ["text", Fixtures.samplePath, "-o", path("all.txt")],
            ["text", Fixtures.samplePath, "--pages", "1", "-o", path("page-%d.txt")],
            ["annotations", "export", Fixtures.path("annotations.pdf"), "--format", "json", "-o", path("notes.json")],
            ["attachments", "extract", Fixtures.path("attachments.pdf"), "-o", files.path, "--force"],
        ]
        for arguments in runs {
            let result = try await Tool.run(HostAppTests.executable, arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        for output in outputs {
            let attributes = try FileManager.default.attributesOfItem(atPath: output)
            #expect(attributes[.posixPermissions] as? Int == 0o600, "\(output)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) != Data("private".utf8), "\(output) was written")
        }
    }
}
