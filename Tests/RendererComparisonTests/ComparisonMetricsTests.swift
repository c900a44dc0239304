import Foundation
import Testing

@testable import RendererComparison
import RendererProvider

/// The comparison metrics on synthetic bitmaps whose answers are known by construction.
@Suite("Comparison metrics")
struct ComparisonMetricsTests {
    /// A white RGB bitmap of 40 x 30 pixels with `rects` filled in `colour`.
    static func bitmap(_ rects: [(x: Int, y: Int, w: Int, h: Int)] = [], colour: [UInt8] = [0, 0, 0]) -> Bitmap {
        var bytes = [UInt8](repeating: 255, count: 40 * 30 * 3)
        for r in rects {
            for y in r.y..<r.y + r.h {
                for x in r.x..<r.x + r.w { bytes.replaceSubrange((y * 40 + x) * 3..<(y * 40 + x) * 3 + 3, with: colour) }
            }
        }
        return Bitmap(width: 40, height: 30, stride: 120, format: .rgb, bytes: bytes)
    }

    @Test func identical() {
        let a = Self.bitmap([(5, 5, 10, 10)])
        let m = PixelMetrics.measure(a, a)
        #expect(m.differingShare == 0 && m.shiftedDifferingShare == 0 && m.psnr == nil)
        #expect(m.inkedShare == 100.0 / 1200 && m.shiftedDifferingShareOfInk == 0)
    }

    @Test func shiftedByOnePixel() {
        let m = PixelMetrics.measure(Self.bitmap([(5, 5, 10, 10)]), Self.bitmap([(6, 5, 10, 10)]))
        // The column the square leaves and the column it enters differ, 10 pixels each...
        #expect(m.differingShare == 20.0 / 1200)
        // ...but allowing a 1-pixel shift nothing does.
        #expect(m.shiftedDifferingShare == 0)
        #expect(m.inkedShare == 110.0 / 1200)
    }

    @Test func oneBlockChanged() {
        let red = [UInt8]([255, 0, 0])
        let m = PixelMetrics.measure(Self.bitmap(), Self.bitmap([(10, 10, 10, 10)], colour: red))
        #expect(m.differingShare == 100.0 / 1200)
        #expect(m.shiftedDifferingShare == 100.0 / 1200)
        #expect(m.shiftedDifferingShareOfInk == 1)
        // MSE: 100 pixels differ by 255 in two of three channels.
        let mse = 100.0 * 2 * 255 * 255 / (1200 * 3)
        #expect(abs(m.psnr! - 10 * log10(255 * 255 / mse)) < 1e-9)
    }

    @Test func blankAgainstInked() {
        let m = PixelMetrics.measure(Self.bitmap(), Self.bitmap([(0, 0, 4, 3)]))
        #expect(m.referenceInkedShare == 0 && m.candidateInkedShare == 12.0 / 1200)
        #expect(m.shiftedDifferingShareOfInk == 1)
    }

    @Test func smallIntensityDifferencesPass() {
        let m = PixelMetrics.measure(Self.bitmap([(5, 5, 10, 10)], colour: [0, 0, 0]), Self.bitmap([(5, 5, 10, 10)], colour: [30, 30, 30]))
        #expect(m.differingShare == 0)
        #expect(m.psnr != nil)
    }

    @Test func heatMapMarksWhereTheyDiffer() {
        let (metrics, heat) = PixelMetrics.measureWithHeatMap(Self.bitmap(), Self.bitmap([(10, 10, 10, 10)], colour: [0, 0, 255]))
        #expect(metrics.shiftedDifferingShare == 100.0 / 1200)
        #expect(heat.pixel(x: 15, y: 15) == [220, 0, 0])
        #expect(heat.pixel(x: 0, y: 0) == [255, 255, 255])
    }

    @Test func wordAgreement() {
        #expect(TextAgreement.words("a b c d", "d c b a") == 1)
        #expect(TextAgreement.words("f(ctx, length)", "f ( ctx , length )") == 1)
        #expect(TextAgreement.words("one two three four", "one two") == 0.5)
        #expect(TextAgreement.words("", "  ") == 1)
        #expect(TextAgreement.words("words", "") == 0)
        // One engine keeps ligatures and composes accents, another does neither.
        #expect(TextAgreement.words("The ofﬁce and the reﬂex", "The office and the reflex") == 1)
        #expect(TextAgreement.words("r\u{E9}sum\u{E9}", "re\u{301}sume\u{301}") == 1)
        #expect(TextAgreement.words("résumé", "resume") == 0, "accents still count")
    }
}

@Suite("Comparing annotations")
struct AnnotationComparisonTests {
    static func annotation(_ id: String, _ kind: AnnotationKind) -> Annotation {
        Annotation(id: id, kind: kind, pageIndex: 0, rect: PageRect(x: 0, y: 0, width: 1, height: 1))
    }

    @Test func kindsAndIdentitiesMustAgree() {
        let a = [Self.annotation("x", .square), Self.annotation("p1-Ink-1", .ink)]
        #expect(DocumentComparer.annotationDifferences(a, a, names: ("a", "b")) == [])
        let fewer = DocumentComparer.annotationDifferences(a, [Self.annotation("x", .square)], names: ("a", "b"))
        #expect(fewer == ["annotations: a finds 2 (Square, Ink), b finds 1 (Square)"])
        let renamed = DocumentComparer.annotationDifferences(a, [Self.annotation("y", .square), Self.annotation("p1-Ink-1", .ink)], names: ("a", "b"))
        #expect(renamed == ["annotation 1: identities differ (x, y)"])
    }
}
