import Foundation
import RendererProvider
import Testing
import TestSupport

/// `PageInfo.boxes`: the five boxes with the PDF's inheritance, defaults and clipping, as
/// boxes.pdf was built to have them and as `pdfinfo -box` reads them.
@Suite("Page boxes")
struct PageBoxesTests {
    @Test(arguments: Fixtures.backendIDs)
    func boxesAreTheFixturesAndPdfinfos(backend: String) throws {
        let file = Fixtures.path("boxes.pdf")
        let boxes = try Fixtures.open("boxes.pdf", backend: backend).pageInfos().map(\.boxes)
        #expect(boxes == FixtureFacts.boxes)
        let printed = try Tool.run("pdfinfo", ["-box", "-f", "1", "-l", "4", file])
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
    @Test(arguments: Fixtures.backendIDs)
    func sizeIsTheCropBoxTurned(backend: String) throws {
        let pages = try Fixtures.open("boxes.pdf", backend: backend).pageInfos()
        #expect(pages.map(\.size) == [
            PageSize(width: 560, height: 740), PageSize(width: 600, height: 800),
            PageSize(width: 300, height: 400), PageSize(width: 740, height: 560),
        ])
    }
}
