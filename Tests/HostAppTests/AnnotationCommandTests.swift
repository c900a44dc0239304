import Foundation
import Testing
import TestSupport

/// `hostapp annotations` and `hostapp bookmarks`, run as a user runs them.
@Suite("hostapp annotations and bookmarks")
struct AnnotationCommandTests {
    func hostapp(_ arguments: [String], environment: [String: String] = [:]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments, environment: environment)
    }

    func list(_ path: String, backend: String) async throws -> [[String: Any]] {
        let result = try await hostapp(["--renderer", backend, "annotations", "list", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    }

    /// The RGB pixel at (x, y) of page 1 drawn at 72 dpi by mutool and by pdftocairo.
    func pixels(of path: String, x: Int, y: Int) async throws -> [[UInt8]] {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let mutoolOut = directory.appendingPathComponent("mutool.pnm").path
        #expect(try await Tool.run("mutool", ["draw", "-q", "-r", "72", "-c", "rgb", "-o", mutoolOut, path, "1"]).status == 0)
        let cairoOut = directory.appendingPathComponent("cairo").path
        #expect(try await Tool.run("pdftocairo", ["-r", "72", "-png", "-singlefile", "-f", "1", "-l", "1", path, cairoOut]).status == 0)
        let images = [
            try Netpbm(Data(contentsOf: URL(fileURLWithPath: mutoolOut))),
            try await Netpbm(Tool.run("pngtopam", [cairoOut + ".png"]).stdout),
        ]
        return images.map { image in
            let offset = (y * image.width + x) * image.channels
            return Array(image.pixels[offset..<offset + 3])
        }
    }

    /// A reply and a review state made with --in-reply-to and --state, listed with their
    /// thread; removing the root removes its replies.
    @Test(arguments: ["mupdf", "poppler"])
    func repliesJoinTheirThread(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let add = { (arguments: [String]) async throws -> String in
            let result = try await self.hostapp(["--renderer", backend, "annotations", "add", path, "--page", "1"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return result.text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let root = try await add(["--kind", "square", "--rect", "100,100,200,100", "--contents", "Right?"])
        let reply = try await add(["--kind", "text", "--rect", "320,100,20,20", "--contents", "Yes.", "--in-reply-to", root])
        let state = try await add(["--kind", "text", "--rect", "350,100,20,20", "--in-reply-to", root, "--state", "accepted"])
        let listed = try await list(path, backend: backend)
        #expect(listed.map { $0["id"] as? String } == [root, reply, state])
        #expect(listed.map { $0["inReplyTo"] as? String } == [nil, root, root])
        #expect(listed[2]["reviewState"] as? String == "Accepted")
        let unknown = try await hostapp(["--renderer", backend, "annotations", "add", path, "--page", "1", "--kind", "text", "--rect", "1,1,9,9", "--state", "maybe"])
        #expect(unknown.status == 64 && unknown.stderr.contains("--state"), "\(unknown.stderr)")
        #expect(try await hostapp(["--renderer", backend, "annotations", "remove", path, root]).status == 0)
        #expect(try await list(path, backend: backend).isEmpty)
    }

    @Test(arguments: ["mupdf", "poppler"])
    func addListUpdateRemoveAndTheReferenceToolsDrawIt(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let added = try await hostapp([
            "--renderer", backend, "annotations", "add", path, "--page", "1", "--kind", "square", "--rect", "100,100,200,100",
            "--color", "#0000FF", "--interior-color", "#0000FF", "--contents", "Box", "--author", "Me",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.text.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!id.isEmpty)
        let listed = try await list(path, backend: backend)
        #expect(listed.count == 1)
        #expect(listed.first?["id"] as? String == id)
        #expect(listed.first?["contents"] as? String == "Box")
        #expect(listed.first?["author"] as? String == "Me")
        #expect(try await Tool.run("qpdf", ["--check", path]).status == 0)
        // Both reference tools draw the blue fill inside the square.
        for pixel in try await pixels(of: path, x: 200, y: 150) {
            #expect(pixel[0] < 40 && pixel[1] < 40 && pixel[2] > 200, "\(pixel)")
        }

        let output = path + ".changed.pdf"
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let updated = try await hostapp(["--renderer", backend, "annotations", "update", path, id, "--contents", "Changed", "-o", output])
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "-o leaves the input alone")
        #expect(try await list(output, backend: backend).first?["contents"] as? String == "Changed")

        let removed = try await hostapp(["--renderer", backend, "annotations", "remove", output, id])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try await list(output, backend: backend).isEmpty)
        let missing = try await hostapp(["--renderer", backend, "annotations", "remove", output, id])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains(id))
    }

    @Test(arguments: Fixtures.backendIDs)
    func aKindTheAPIDoesNotCreateIsAClearError(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try await hostapp(["--renderer", backend, "annotations", "add", path, "--page", "1", "--kind", "caret", "--rect", "10,10,20,20"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown kind \"caret\": use one of text, freetext"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func exportFromMuPDFImportWithPoppler() async throws {
        let source = try AnnotationSamples.scratchCopy(of: Fixtures.path("annotations.pdf"))
        let directory = URL(fileURLWithPath: source).deletingLastPathComponent()
        let xfdf = directory.appendingPathComponent("notes.xfdf").path
        #expect(try await hostapp(["--renderer", "mupdf", "annotations", "export", source, "--format", "xfdf", "-o", xfdf]).status == 0)
        let target = directory.appendingPathComponent("fresh.pdf").path
        try FileManager.default.copyItem(atPath: Fixtures.path("text.pdf"), toPath: target)
        let imported = try await hostapp(["--renderer", "poppler", "annotations", "import", target, xfdf, "--in-place"])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Everything but the caret and the file attachment, which XFDF export leaves out
        // because the API does not create them.
        #expect(imported.text == "imported 7 annotations\n")
        #expect(imported.stderr.isEmpty)
        let kinds = try await list(target, backend: "mupdf").map { $0["kind"] as? String }
        #expect(kinds == ["Text", "Highlight", "Square", "Ink", "Line", "PolyLine", "Highlight"])
        #expect(try await Tool.run("qpdf", ["--check", target]).status == 0)
    }

    @Test func aSaveIntoAReadOnlyDirectoryFailsWithAnIOError() async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        if access(directory, W_OK) == 0 {
            #expect(try await Tool.run("chattr", ["+i", directory]).status == 0, "chattr +i is needed to test this as root")
        }
        defer { _ = try? Tool.runBlocking("chattr", ["-i", directory]) }
        for backend in ["mupdf", "poppler"] {
            let result = try await hostapp(["--renderer", backend, "annotations", "add", path, "--page", "1", "--kind", "square", "--rect", "1,1,9,9"])
            #expect(result.status == 74, "\(result.stderr)")
            #expect(result.stderr.contains("cannot create a file in"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["text.pdf"])
        }
    }

    @Test func bookmarksSurviveARenameAndAnIncrementalSave() async throws {
        let scratch = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let directory = URL(fileURLWithPath: scratch).deletingLastPathComponent()
        let environment = ["XDG_DATA_HOME": directory.appendingPathComponent("data").path]
        // qpdf writes a file identifier (/ID); the copy made by mutool has none.
        let withID = directory.appendingPathComponent("with-id.pdf").path
        #expect(try await Tool.run("qpdf", [scratch, withID]).status == 0)
        for file in [scratch, withID] {
            let added = try await hostapp(["bookmarks", "add", file, "--page", "2", "--title", "Second"], environment: environment)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(try await hostapp(["bookmarks", "last", file, "--page", "3"], environment: environment).status == 0)
            let renamed = file + ".renamed.pdf"
            try FileManager.default.moveItem(atPath: file, toPath: renamed)
            let listed = try await hostapp(["bookmarks", "list", renamed, "--json"], environment: environment)
            let json = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [String: Any])
            let bookmarks = try #require(json["bookmarks"] as? [[String: Any]])
            #expect(bookmarks.map { $0["title"] as? String } == ["Second"])
            #expect(bookmarks.first?["pageIndex"] as? Int == 1)
            #expect(json["lastViewedPage"] as? Int == 3)
            #expect((json["fingerprint"] as? String)?.hasPrefix(file == withID ? "id:" : "sha256:") == true)
            if file == withID {
                // An incremental save keeps the /ID, so the bookmarks stay with the changed file.
                #expect(try await hostapp(["annotations", "add", renamed, "--page", "1", "--kind", "square", "--rect", "1,1,9,9"]).status == 0)
                #expect(try await hostapp(["bookmarks", "list", renamed], environment: environment).text.contains("Second"))
            }
            let id = String(describing: bookmarks.first?["id"] ?? "")
            #expect(try await hostapp(["bookmarks", "remove", renamed, id], environment: environment).status == 0)
            #expect(try await hostapp(["bookmarks", "list", renamed], environment: environment).text == "last viewed: page 3\n")
            #expect(try await hostapp(["bookmarks", "remove", renamed, id], environment: environment).status == 64)
        }
    }

    /// `redact` marks the areas given, applies every mark and rewrites the file: the words are
    /// gone for pdftotext, the rest stays; Poppler refuses and the file is untouched.
    @Test func redactRemovesTheWordsUnderTheAreas() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("text.pdf").path, output = directory.appendingPathComponent("out.pdf").path
        try FileManager.default.copyItem(atPath: Fixtures.path("text.pdf"), toPath: input)
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        let words = try #require(try Fixtures.open("text.pdf", backend: "mupdf").search("quick brown", pageAt: 0).first).bounds
        let area = [words.origin.x + 1, words.origin.y + 1, words.size.width - 2, words.size.height - 2].map { String($0) }.joined(separator: ",")

        let refused = try await hostapp(["--renderer", "poppler", "redact", input, "--page", "1", "--area", area])
        #expect(refused.status != 0 && refused.stderr.contains("redact"), "\(refused.stderr)")
        let redacted = try await hostapp(["--renderer", "mupdf", "redact", input, "--page", "1", "--area", area, "-o", output])
        #expect(redacted.status == 0 && redacted.text == "redacted page 1\n", "\(redacted.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
        let text = try await Tool.run("pdftotext", ["-f", "1", "-l", "1", output, "-"]).text
        #expect(!text.contains("quick") && text.contains("lazy dog"), "\(text)")
        #expect(try await hostapp(["--renderer", "mupdf", "redact", input, "--area", area]).status == 64, "--area needs --page")
    }
    /// `annotations add --kind stamp --image`: the picture drawn by both tools where the stamp
    /// is, on each engine and with the engine isolated; a file that is not a picture, a
    /// missing one and --image on another kind fail with their exit codes and leave the PDF
    /// as it was, byte for byte.
    @Test(arguments: [["--renderer", "mupdf"], ["--renderer", "poppler"], ["--renderer", "poppler", "--isolate"]])
    func imageStamps(options: [String]) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let picture = folder.appendingPathComponent("picture.png").path
        try StampPictures.png(StampPictures.quadrants()).write(to: URL(fileURLWithPath: picture))
        try Data("not a picture".utf8).write(to: folder.appendingPathComponent("picture.txt"))
        let add = ["annotations", "add", path, "--page", "1", "--kind", "stamp", "--rect", "72,72,200,200", "--contents", "photo"]
        let added = try await hostapp(options + add + ["--image", picture])
        #expect(added.status == 0, "\(added.stderr)")
        for sample in StampPictures.samples(in: StampPictures.fitted) where sample.color != nil {
            let drawn = try await pixels(of: path, x: Int(sample.point.x), y: Int(sample.point.y))
            #expect(drawn == [sample.color!, sample.color!], "\(options) at \(sample.point)")
        }

        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let notAPicture = try await hostapp(options + add + ["--image", folder.appendingPathComponent("picture.txt").path])
        #expect(notAPicture.status == 65 && notAPicture.stderr.contains("JPEG or PNG"), "\(notAPicture.stderr)")
        let missing = try await hostapp(options + add + ["--image", folder.appendingPathComponent("none.png").path])
        #expect(missing.status == 74, "\(missing.stderr)")
        var square = add
        square[square.firstIndex(of: "stamp")!] = "square"
        let wrongKind = try await hostapp(options + square + ["--image", picture])
        #expect(wrongKind.status == 64 && wrongKind.stderr.contains("--image"), "\(wrongKind.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

/// Every kind each backend creates is drawn by both reference tools, inside its rectangle.
@Suite("Created annotations in other viewers")
struct AnnotationVisibilityTests {
    /// Page 1 of `path` at 72 dpi, drawn by mutool and by pdftocairo.
    static func renders(of path: String) async throws -> [Netpbm] {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let mutoolOut = directory.appendingPathComponent("\(name)-mutool.pnm").path
        let cairoOut = directory.appendingPathComponent("\(name)-cairo").path
        #expect(try await Tool.run("mutool", ["draw", "-q", "-r", "72", "-c", "rgb", "-o", mutoolOut, path, "1"]).status == 0)
        #expect(try await Tool.run("pdftocairo", ["-r", "72", "-png", "-singlefile", "-f", "1", "-l", "1", path, cairoOut]).status == 0)
        return [try Netpbm(Data(contentsOf: URL(fileURLWithPath: mutoolOut))), try await Netpbm(Tool.run("pngtopam", [cairoOut + ".png"]).stdout)]
    }

    @Test(arguments: ["mupdf", "poppler"])
    func everyCreatedKindIsDrawnByMutoolAndPdftocairo(backend: String) async throws {
        // Both files in a scratch directory of this test case, where the renders are written too.
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let original = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("original.pdf").path
        try FileManager.default.copyItem(atPath: path, toPath: original)
        let document = try await Fixtures.registry.open(.file(path), renderer: .id(backend))
        let added = try AnnotationSamples.samples(pageIndex: 0).map { try document.addAnnotation($0) }
        try document.save()
        let before = try await Self.renders(of: original), after = try await Self.renders(of: path)
        for (tool, (plain, annotated)) in zip(["mutool", "pdftocairo"], zip(before, after)) {
            for annotation in added {
                let r = annotation.rect
                var changed = 0
                for y in Int(r.minY)..<Int(r.maxY.rounded(.up)) {
                    for x in Int(r.minX)..<Int(r.maxX.rounded(.up)) {
                        let offset = (y * plain.width + x) * plain.channels
                        if (0..<3).contains(where: { abs(Int(plain.pixels[offset + $0]) - Int(annotated.pixels[offset + $0])) > 32 }) { changed += 1 }
                    }
                }
                #expect(changed >= 10, "\(tool) does not draw the \(annotation.kind) made by \(backend) (\(changed) pixels changed)")
            }
        }
    }

}
