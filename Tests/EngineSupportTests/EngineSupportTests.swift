import Foundation
import RendererEngine
import Testing

@testable import EngineSupport

/// The glue both backends share: PDF dates and page labels as the engines hand them over,
/// positional annotation keys, and the alpha conversions around the engines' pixels.
@Suite("Engine support")
struct EngineSupportTests {
    @Test func pdfDates() {
        #expect(PDFDate.parse("D:20240102030405+01'00'") == Date(timeIntervalSince1970: 1_704_161_045))
        #expect(PDFDate.parse("D:20250607080910Z") == Date(timeIntervalSince1970: 1_749_283_750))
        #expect(PDFDate.parse("D:20250607080910-05'30") == Date(timeIntervalSince1970: 1_749_283_750 + 19_800))
        #expect(PDFDate.parse("D:2024") == Date(timeIntervalSince1970: 1_704_067_200))  // 2024-01-01T00:00:00Z
        #expect(PDFDate.parse("D:20241301") == nil)  // month 13
        #expect(PDFDate.parse("yesterday") == nil)
    }

    @Test func pageLabels() {
        let ranges = [
            PageLabelRange(firstPage: 0, style: .lowerRoman, prefix: "", firstNumber: 1),
            PageLabelRange(firstPage: 4, style: .decimal, prefix: "A-", firstNumber: 7),
            PageLabelRange(firstPage: 6, style: nil, prefix: "Cover", firstNumber: 1),
            PageLabelRange(firstPage: 7, style: .upperLetters, prefix: "", firstNumber: 26),
        ]
        let labels = (0..<10).map { PageLabelRange.label(forPage: $0, in: ranges) }
        #expect(labels == ["i", "ii", "iii", "iv", "A-7", "A-8", "Cover", "Z", "AA", "BB"])
        #expect(PageLabelRange.label(forPage: 3, in: []) == "4")
        let late = [PageLabelRange(firstPage: 2, style: .upperRoman, prefix: "", firstNumber: 1994)]
        #expect(PageLabelRange.label(forPage: 0, in: late) == "1")
        #expect(PageLabelRange.label(forPage: 2, in: late) == "MCMXCIV")
        let hostile = [PageLabelRange(firstPage: 0, style: .lowerLetters, prefix: "", firstNumber: 2_000_000_000)]
        #expect(PageLabelRange.label(forPage: 0, in: hostile) == "2000000000")
    }

    @Test func alphaConversionsRoundTrip() {
        var pixels: [UInt8] = [255, 128, 0, 128, 10, 20, 30, 0, 200, 100, 50, 255]
        Bitmap.premultiplyRGBA(&pixels, width: 3, height: 1, stride: 12)
        #expect(pixels == [128, 64, 0, 128, 0, 0, 0, 0, 200, 100, 50, 255])
        pixels.withUnsafeMutableBufferPointer { Bitmap.unpremultiplyRGBA($0, width: 3, height: 1, stride: 12) }
        #expect(pixels == [255, 128, 0, 128, 0, 0, 0, 0, 200, 100, 50, 255])
    }

    @Test func positionalKeysCountEveryAnnotationOfAKind() {
        let ids = AnnotationIdentity.ids(pageIndex: 1, of: [
            ("a", .highlight), (nil, .highlight), (nil, .square), ("a", .highlight), ("", .square),
        ])
        #expect(ids == ["a", "p2-Highlight-2", "p2-Square-1", "p2-Highlight-3", "p2-Square-2"])
    }
}
