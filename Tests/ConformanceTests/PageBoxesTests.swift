import Foundation
import RendererProvider
import Testing
import TestSupport

/// `PageInfo.boxes`: the five boxes with the PDF's inheritance, defaults and clipping, as
/// boxes.pdf was built to have them and as `pdfinfo -box` reads them.
@Suite("Page boxes")
struct PageBoxesTests {
    @Test(arguments: Fixtures.readingBackendIDs)
    func boxesAreTheFixturesAndPdfinfos(backend: String) async throws {
        let file = Fixtures.path("boxes.pdf")
        let boxes = try Fixtures.open("boxes.pdf", backend: backend).pageInfos().map(\.boxes)
        #expect(boxes == FixtureFacts.boxes)
        let printed = try await Tool.run("pdfinfo", ["-box", "-f", "1", "-l", "4", file])
        #expect(printed.status == 0)
        var pdfinfo: [Int: [String: [Double]]] = [:]
        for match in printed.text.matches(of: /Page +(\d+) (\w+)Box: +([-\d.]+) +([-\d.]+) +([-\d.]+) +([-\d.]+)/) {
            let numbers = [match.output.3, match.output.4, match.output.5, match.output.6].compactMap { Double($0) }
            pdfinfo[Int(match.output.1)!, default: [:]][String(match.output.2)] = numbers
        }
        #expect(pdfinfo.count == 4)
        for (index, page) in boxes.enumerated() {
            let page = try #require(page)
            let ours = ["Media": page.media, "Crop": page.crop, "Bleed": page.bleed, "Trim": page.trim, "Art": page.art]
            for (name, box) in ours {
                #expect(pdfinfo[index + 1]?[name] == [box.x0, box.y0, box.x1, box.y1], "page \(index + 1) \(name)Box")
            }
        }
    }

    /// The displayed size is the crop box's, turned with the page.
    @Test(arguments: Fixtures.readingBackendIDs)
    func sizeIsTheCropBoxTurned(backend: String) throws {
        let pages = try Fixtures.open("boxes.pdf", backend: backend).pageInfos()
        #expect(pages.map(\.size) == [
            PageSize(width: 560, height: 740), PageSize(width: 600, height: 800),
            PageSize(width: 300, height: 400), PageSize(width: 740, height: 560),
        ])
    }

    /// `RenderOptions.box`: a box inside the crop box draws the crop render's pixels at the
    /// box's place, turned with the page (page 4 is turned a quarter), and a clip is then
    /// from the box's corner.
    @Test(arguments: Fixtures.readingBackendIDs)
    func aBoxInsideTheCropBoxIsThatPartOfThePage(backend: String) throws {
        let document = try Fixtures.open("boxes.pdf", backend: backend)
        for (page, place) in [(0, PixelRect(x: 20, y: 20, width: 520, height: 700)), (3, PixelRect(x: 20, y: 20, width: 700, height: 520))] {
            let whole = try document.render(pageAt: page, options: RenderOptions(dpi: 72))
            var options = RenderOptions(dpi: 72)
            options.box = .trim
            let trim = try document.render(pageAt: page, options: options)
            #expect((trim.width, trim.height) == (place.width, place.height), "page \(page + 1)")
            let same = trim.bytes == Self.crop(whole, place)
            #expect(same, "page \(page + 1): the trim box is not the crop render's part")
            options.clip = PageRect(x: 10, y: 10, width: 100, height: 50)
            let clipped = try document.render(pageAt: page, options: options)
            let sameClip = clipped.bytes == Self.crop(whole, PixelRect(x: place.x + 10, y: place.y + 10, width: 100, height: 50))
            #expect(sameClip, "page \(page + 1): the clip is not from the trim box's corner")
        }
    }

    /// A media box larger than the crop box: MuPDF draws what lies outside the crop box, as
    /// `mutool draw` draws a copy of the file without its `/CropBox` (made by pypdf);
    /// poppler-glib clips to the crop box, so Poppler says it cannot, and draws a media box
    /// that is the crop box; so does the Ghostscript backend, which draws the crop box.
    @Test(arguments: Fixtures.readingBackendIDs)
    func aMediaBoxPastTheCropBox(backend: String) async throws {
        let document = try Fixtures.open("boxes.pdf", backend: backend)
        var options = RenderOptions(dpi: 72)
        options.box = .media
        if Fixtures.engineID(backend) != "mupdf" {
            #expect(throws: RendererError.self) { try document.render(pageAt: 0, options: options) }
            let media = try await document.render(pageAt: 1, options: options)
            let crop = try await document.render(pageAt: 1, options: RenderOptions(dpi: 72))
            let same = media.bytes == crop.bytes
            #expect(same, "page 2's media box is its crop box")
            return
        }
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let uncropped = directory.appendingPathComponent("uncropped.pdf").path
        let script = """
            import sys, pypdf
            writer = pypdf.PdfWriter(clone_from=sys.argv[1])
            for page in writer.pages:
                if "/CropBox" in page: del page["/CropBox"]
            writer.write(sys.argv[2])
            """
        let removed = try await Tool.run("python3", ["-c", script, Fixtures.path("boxes.pdf"), uncropped])
        try #require(removed.status == 0, "pypdf failed: \(removed.stderr)")
        let theirs = try await EngineTools.draw(backend: "mupdf", file: uncropped, page: 1, dpi: 72, in: directory)
        let media = try await document.render(pageAt: 0, options: options)
        #expect((media.width, media.height) == (600, 800) && (theirs.width, theirs.height) == (600, 800))
        let same = media.bytes == theirs.pixels
        #expect(same, "the media box differs from mutool draw's page without its crop box")
        // The red square outside the crop box, near the media box's bottom-left corner.
        let corner = (800 - 6) * media.stride + 6 * 3
        #expect(Array(media.bytes[corner..<(corner + 3)]) == [255, 0, 0])
    }

    /// The rows and columns of an RGB bitmap that `area` covers.
    private static func crop(_ bitmap: Bitmap, _ area: PixelRect) -> [UInt8] {
        var bytes: [UInt8] = []
        for row in area.y..<(area.y + area.height) {
            let start = row * bitmap.stride + area.x * 3
            bytes += bitmap.bytes[start..<(start + area.width * 3)]
        }
        return bytes
    }
}
