import RendererProvider
import Testing

@testable import RendererOCR

/// The leader-dot finder on images made here, pixel by pixel: 20 rows of 30 square dots
/// (3 pixels a side, 9 apart, as a contents page at 300 dpi draws them) are 20 rows of 30;
/// the same image past the bound on runs of ink is not analysed, and gives none.
@Suite("Leader dots")
struct DotLeadersTests {
    /// A white gray image with `rows` rows of `columns` dots.
    static func dots(rows: Int, columns: Int) -> Bitmap {
        let (width, height) = (columns * 9 + 20, rows * 20 + 20)
        var bytes = [UInt8](repeating: 255, count: width * height)
        for row in 0..<rows {
            for column in 0..<columns {
                for dy in 0..<3 {
                    for dx in 0..<3 { bytes[(10 + row * 20 + dy) * width + 10 + column * 9 + dx] = 0 }
                }
            }
        }
        return Bitmap(width: width, height: height, stride: width, format: .gray, bytes: bytes)
    }

    @Test func rowsOfDotsAreFoundAndAnImagePastTheBoundIsNotAnalysed() {
        let image = Self.dots(rows: 20, columns: 30)
        let found = DotLeaders(in: image, pointsPerPixel: 72.0 / 300)
        #expect(found.rows.count == 20 && found.rows.allSatisfy { $0.dots.count == 30 }, "\(found.rows.map(\.dots.count))")
        // 1,800 runs of ink (three a dot): a bound of 1,800 reads them all, one of 1,000 none.
        #expect(DotLeaders(in: image, pointsPerPixel: 72.0 / 300, runLimit: 1_800).rows.count == 20)
        #expect(DotLeaders(in: image, pointsPerPixel: 72.0 / 300, runLimit: 1_000).rows.isEmpty)
    }
}
