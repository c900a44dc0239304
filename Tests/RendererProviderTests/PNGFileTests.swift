import Foundation
import RendererProvider
import Testing

/// PNG files read back into bitmaps, and text carried beside their pixels.
@Suite("PNG files read and annotated")
struct PNGFileTests {
    static let bitmap = Bitmap(width: 3, height: 2, stride: 9, format: .rgb, bytes: [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 40, 50, 60, 70, 80, 90])

    @Test func aWrittenPNGReadsBackAsTheSamePixels() throws {
        #expect(try Bitmap(pngData: Self.bitmap.pngData()) == Self.bitmap)
        // A gray page is written as a gray PNG and read back as RGB of the same values.
        let gray = Bitmap(width: 2, height: 1, stride: 6, format: .rgb, bytes: [7, 7, 7, 200, 200, 200])
        #expect(try Bitmap(pngData: gray.pngData()) == gray)
        let translucent = Bitmap(width: 1, height: 1, stride: 4, format: .rgba, bytes: [1, 2, 3, 4])
        #expect(try Bitmap(pngData: translucent.pngData()) == translucent)
    }

    @Test func bytesThatAreNoPNGAreRefused() {
        #expect(throws: RendererError.self) { try Bitmap(pngData: Data("GIF89a".utf8)) }
        #expect(throws: RendererError.self) { try Bitmap(pngData: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])) }
    }

    @Test func textAddedToAPNGReadsBackAndLeavesThePixels() throws {
        let png = try Self.bitmap.pngData()
        let annotated = try PNGText.adding("façade ✓ {\"a\":1}", keyword: "Layout", to: png)
        #expect(try PNGText.text(forKeyword: "Layout", in: annotated) == "façade ✓ {\"a\":1}")
        #expect(try PNGText.text(forKeyword: "Other", in: annotated) == nil)
        #expect(try Bitmap(pngData: annotated) == Self.bitmap)
        #expect(throws: RendererError.self) { try PNGText.adding("x", keyword: "", to: png) }
        #expect(throws: RendererError.self) { try PNGText.adding("x", keyword: "Layout", to: Data("not a png".utf8)) }
        #expect(throws: RendererError.self) { try PNGText.text(forKeyword: "Layout", in: annotated.prefix(40) + Data([0, 0, 1, 0])) }
    }
}
