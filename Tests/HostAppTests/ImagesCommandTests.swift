import Foundation
import Testing
import TestSupport

/// `hostapp images`, run as a user runs it: the list against `pdfimages -list` on every
/// fixture Poppler's tool reads, with both engines; the files against `pdfimages -png` and
/// the fixture's own bytes (images.pdf, make-fixtures.sh); what an unfriendly file or
/// request gets.
@Suite("hostapp images")
struct ImagesCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    /// The rows of `pdfimages -list` (page, num, type, width, height, color, comp, bpc, enc,
    /// interp, and for an image or stencil its object), or nil when it cannot read the file.
    static func pdfimagesRows(_ path: String) async throws -> [[String]]? {
        let listed = try await Tool.run("pdfimages", ["-list", path])
        guard listed.status == 0 else { return nil }
        return listed.text.split(separator: "\n").dropFirst(2).map { line in
            let cells = line.split(separator: " ").map(String.init)
            let object = ["image", "stencil"].contains(cells[2]) ? (cells[10] == "[inline]" ? ["[inline]"] : [cells[10], cells[11]]) : []
            return Array(cells[0..<10]) + object
        }
    }

    /// Our list in the same cells, from `images list --json`.
    func rows(_ path: String, renderer: String) async throws -> [[String]]? {
        let listed = try await hostapp(["--renderer", renderer, "images", "list", "--json", path])
        guard listed.status == 0 else { return nil }
        let images = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        return images.map { image in
            let role = image["role"] as! String
            var cells = ["\(image["pageIndex"] as! Int + 1)", "\(image["number"]!)", role, "\(image["width"]!)", "\(image["height"]!)",
                         image["colorSpace"] as! String, "\(image["components"]!)", "\(image["bitsPerComponent"]!)", image["encoding"] as! String,
                         (image["interpolates"] as! Bool) ? "yes" : "no"]
            if ["image", "stencil"].contains(role) {
                if let object = image["object"] as? [String: Int] { cells += ["\(object["number"]!)", "\(object["generation"]!)"] } else { cells.append("[inline]") }
            }
            return cells
        }
    }

    /// Every fixture both tools read: the same images, in the same order, with the same
    /// facts (a mask's object aside: pdfimages names the image it masks, this list the mask).
    /// images.pdf's 15 are among them: drawn twice, in a form, through soft and explicit masks,
    /// a stencil, indexed, inline, in an annotation's appearance and in a soft mask's group; not
    /// the unused one, the pattern's or the hidden annotation's.
    @Test(arguments: ["mupdf", "poppler"])
    func listsWhatPdfimagesLists(renderer: String) async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("")).filter { $0.hasSuffix(".pdf") }.sorted()
        var compared = 0
        for file in files {
            guard let expected = try await Self.pdfimagesRows(Fixtures.path(file)) else { continue }
            guard let found = try await rows(Fixtures.path(file), renderer: renderer) else {
                let opened = try await hostapp(["--renderer", renderer, "info", Fixtures.path(file)])
                #expect(opened.status != 0, "\(file): pdfimages lists it and \(renderer) opens it, but images list failed")
                continue
            }
            #expect(found == expected, "\(file)")
            compared += found.count
        }
        let images = try await rows(Fixtures.path("images.pdf"), renderer: renderer)
        #expect(images?.count == 15 && images?.map { $0[2] } == ["image", "image", "image", "image", "smask", "stencil", "image", "image", "image",
                                                                  "image", "mask", "image", "image", "image", "image"])
        #expect(compared >= 115, "long.pdf's 100 and images.pdf's 15 at least")
    }

    /// The JPEG is the fixture's file byte for byte; the other images' pixels are those
    /// `pdfimages -png` writes (an explicit mask white where the image shows), and where
    /// pdfimages converts by other rules (a 1-bit palette as black and white, CMYK and a
    /// separation through Poppler's colour conversion) the colours the fixture holds. The same
    /// from an engine process (`--isolate`).
    /// Each image the pages' content draws is where pdfplumber (pdfminer's interpreter, which
    /// shares no code with either engine) sees it, within a hundredth of a point, on the
    /// image fixture (forms, inline images, stencils) and on a picture LibreOffice placed.
    @Test(arguments: ["mupdf", "poppler"])
    func placesEachImageWherePdfplumberSeesIt(renderer: String) async throws {
        for file in ["images.pdf", "office.pdf"] {
            let script = """
                import json, sys, pdfplumber
                with pdfplumber.open(sys.argv[1]) as pdf:
                    print(json.dumps([[page.page_number - 1, i["x0"], i["top"], i["x1"], i["bottom"]] for page in pdf.pages for i in page.images]))
                """
            let plumber = try await Tool.run("python3", ["-c", script, Fixtures.path(file)])
            try #require(plumber.status == 0, "\(plumber.stderr)")
            let seen = try #require(try JSONSerialization.jsonObject(with: plumber.stdout) as? [[Double]])
            let listed = try await hostapp(["--renderer", renderer, "images", "list", "--json", Fixtures.path(file)])
            let images = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
            let placed = images.filter { ["image", "stencil"].contains($0["role"] as? String) }.compactMap { image -> [Double]? in
                guard let bounds = image["bounds"] as? [String: [String: Double]], let origin = bounds["origin"], let size = bounds["size"] else { return nil }
                return [Double(image["pageIndex"] as! Int), origin["x"]!, origin["y"]!, origin["x"]! + size["width"]!, origin["y"]! + size["height"]!]
            }
            let sorted = { (boxes: [[Double]]) in boxes.sorted { $0.lexicographicallyPrecedes($1) } }
            #expect(!seen.isEmpty && placed.count == seen.count, "\(file): \(placed) against \(seen)")
            for (ours, theirs) in zip(sorted(placed), sorted(seen)) {
                #expect(zip(ours, theirs).allSatisfy { abs($0 - $1) < 0.01 }, "\(file): \(ours) against \(theirs)")
            }
        }
    }

    @Test(arguments: [["--renderer", "mupdf"], ["--renderer", "poppler"], ["--isolate", "--renderer", "poppler"]])
    func extractsWhatThePagesHold(engine: [String]) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("images.pdf")
        let saved = try await hostapp(engine + ["images", "extract", file, "-o", folder.path + "/mine"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try await Tool.run("pdfimages", ["-png", file, folder.path + "/ref"]).status == 0)
        func pixels(_ path: String) async throws -> [UInt8] {
            [UInt8](try await Tool.run("convert", [path, "-depth", "8", "rgb:-"]).stdout)
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("mine/images-002.jpg")) == Data(contentsOf: URL(fileURLWithPath: Fixtures.path("image.jpg"))))
        for number in ["000", "001", "003", "004", "005", "007", "008", "009", "010", "011", "012"] {
            let (mine, reference) = (try await pixels(folder.path + "/mine/images-\(number).png"), try await pixels(folder.path + "/ref-\(number).png"))
            #expect(!mine.isEmpty && mine == reference, "image \(number)")
        }
        let (red, blue): ([UInt8], [UInt8]) = ([255, 0, 0], [0, 0, 255])
        #expect(try await pixels(folder.path + "/mine/images-006.png") == [blue, blue, red, red, blue, red, blue, red].flatMap { $0 })
        #expect(try await pixels(folder.path + "/mine/images-013.png") == [0, 255, 255, 255, 0, 255, 255, 255, 0, 0, 0, 0])
        #expect(try await pixels(folder.path + "/mine/images-014.png") == [255, 255, 255, 0, 0, 0], "no ink white, full ink black")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/mine").sorted()
        #expect(names.count == 15 && names.first == "images-000.png" && names.last == "images-014.png", "\(names)")
    }

    /// Unfriendly requests and files: a number past the list, an existing file without
    /// --force, a PDF that forbids copying, settings that forbid saving elsewhere, Ghostscript;
    /// a form that draws itself, arrays nested ten thousand deep, an inline image without its
    /// end and a page that draws one image twenty thousand times end with a list or a typed
    /// error, and nothing is written where something was refused.
    @Test func refusesWhatItShouldAndEndsOnHostileContent() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Fixtures.path("images.pdf")
        let past = try await hostapp(["images", "extract", file, "-o", folder.path + "/past", "--number", "15"])
        #expect(past.status == 64 && past.stderr.contains("image 15 does not exist"), "\(past.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/past/images-015.png"))
        #expect(try await hostapp(["images", "extract", file, "-o", folder.path + "/one", "--number", "2"]).status == 0)
        let again = try await hostapp(["images", "extract", file, "-o", folder.path + "/one", "--number", "2"])
        #expect(again.status == 75 && again.stderr.contains("--force"), "\(again.stderr)")
        let locked = folder.appendingPathComponent("locked.pdf").path
        #expect(try await Tool.run("qpdf", ["--encrypt", "", "owner-secret", "256", "--extract=n", "--", file, locked]).status == 0)
        let forbidden = try await hostapp(["images", "extract", locked, "-o", folder.path + "/locked"])
        #expect(forbidden.status == 77 && forbidden.stderr.contains("permission copy"), "\(forbidden.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/locked"))
        #expect(try await hostapp(["images", "extract", locked, "--password", "owner-secret", "-o", folder.path + "/owner"]).status == 0)
        let settings = folder.appendingPathComponent("settings.json")
        try Data(#"{"saveTo": {"available": false, "enabled": false}}"#.utf8).write(to: settings)
        let refused = try await hostapp(["--settings", settings.path, "images", "extract", file, "-o", folder.path + "/settings"])
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/settings"))
        let ghostscript = try await hostapp(["--renderer", "ghostscript", "images", "list", file])
        #expect(ghostscript.status != 0 && ghostscript.stderr.contains("does not list a document's fonts, images and drawings"), "\(ghostscript.stderr)")

        let hostile = folder.appendingPathComponent("hostile.pdf").path
        let script = """
            import sys
            sys.path.insert(0, sys.argv[1])
            from pdf_writer import pdf_file
            def stream(d, data): return b"<< " + d + b" /Length %d >>\\nstream\\n" % len(data) + data + b"\\nendstream"
            image = stream(b"/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8", b"\\x80")
            loop = stream(b"/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << /XObject << /Me 7 0 R /Im 8 0 R >> >>", b"/Im Do /Me Do")
            huge = b"1" + b"0" * 300
            pages = [b"/Fm Do", b"[" * 10000 + b"/Im Do", b"BI /W 1 /H 1 /CS /G /BPC 8 ID \\x80 and no end", b"/Im Do\\n" * 20000,
                     (huge + b" 0 0 " + huge + b" 0 0 cm ") * 2 + b"/Im Do"]
            objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
                       2: b"<< /Type /Pages /Count 5 /Kids [3 0 R 4 0 R 5 0 R 6 0 R 14 0 R] >>", 7: loop, 8: image}
            for i, content in enumerate(pages):
                number = 3 + i if i < 4 else 14
                rotate = b" /Rotate 1" + b"0" * 400 if i == 4 else b""
                objects[number] = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10]%s /Contents %d 0 R /Resources << /XObject << /Fm 7 0 R /Im 8 0 R >> >> >>" % (rotate, 9 + i)
                objects[9 + i] = stream(b"", content)
            open(sys.argv[2], "wb").write(pdf_file(objects)[0])
            """
        #expect(try await Tool.run("python3", ["-c", script, Fixtures.path(""), hostile]).status == 0)
        for renderer in ["mupdf", "poppler"] {
            let listed = try await hostapp(["--renderer", renderer, "images", "list", "--json", hostile])
            #expect(listed.status == 0, "\(renderer): \(listed.stderr)")
            let images = try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]] ?? []
            let pages = images.map { $0["pageIndex"] as? Int ?? -1 }
            // The looping form draws its image once before it meets itself; the page nested
            // past the limit draws nothing; the unended inline image is not one; the fourth
            // page lists every draw; the last, turned by 10^400 degrees, draws its image
            // scaled past any number, which places it nowhere.
            #expect(pages.filter { $0 == 0 }.count == 1 && pages.filter { $0 == 1 || $0 == 2 }.isEmpty && pages.filter { $0 == 3 }.count == 20_000,
                    "\(renderer): \(images.count) images")
            let last = images.filter { $0["pageIndex"] as? Int == 4 }
            #expect(last.count == 1 && last.first?["bounds"] == nil, "\(renderer): \(last)")
        }
    }
}
