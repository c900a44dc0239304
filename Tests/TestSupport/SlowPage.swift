import Foundation

/// A one-page PDF that takes engines seconds to draw, written at test time: a US Letter page
/// (612 x 792 pt) whose content stroke `curves` cubic Bézier curves 1 pt wide in blue, at
/// places from a fixed pseudo-random sequence, with a correct cross-reference table.
/// Measured on this project's machines at 300 dpi: 200,000 curves take `mutool draw` 35 s and
/// `pdftoppm` 38 s, so the time grows by about 1 s per 6,000 curves.
public enum SlowPage {
    public static func write(curves: Int, to path: String) throws {
        var generator = LinearCongruential(seed: 1)
        var content = "1 w 0 0 1 RG\n"
        for _ in 0..<curves {
            let x = Double(generator.next() % 6000) / 10, y = Double(generator.next() % 8000) / 10
            content += "\(x) \(y) m \(x + 30) \(y + 40) \(x - 20) \(y + 60) \(x + 5) \(y + 5) c S\n"
        }
        try HandMadePDF.write([
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ], to: path)
    }

    /// A one-page PDF that would take an engine hours to draw, in 60 KB: the page draws a form
    /// ten times that draws a form a hundred times that draws a form a hundred times that
    /// strokes 1,000 curves (100 million curves in all). Only a stop inside the page ends
    /// its drawing.
    public static func writeEndless(to path: String) throws {
        var generator = LinearCongruential(seed: 1)
        var curves = "1 w 0 0 1 RG\n"
        for _ in 0..<1_000 {
            let x = Double(generator.next() % 6000) / 10, y = Double(generator.next() % 8000) / 10
            curves += "\(x) \(y) m \(x + 30) \(y + 40) \(x - 20) \(y + 60) \(x + 5) \(y + 5) c S\n"
        }
        func stream(_ content: String, form inner: Int? = nil) -> String {
            let head = inner.map { "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X \($0) 0 R >> >> " }
                ?? "/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
            return "<< \(head)/Length \(content.utf8.count) >>\nstream\n\(content)\nendstream"
        }
        let page = String(repeating: "/X Do\n", count: 10)
        try HandMadePDF.write([
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X 7 0 R >> >> /Contents 4 0 R >>",
            "<< /Length \(page.utf8.count) >>\nstream\n\(page)\nendstream",
            stream(curves),
            stream(String(repeating: "/X Do\n", count: 100), form: 5),
            stream(String(repeating: "/X Do\n", count: 100), form: 6),
        ], to: path)
    }

    /// A small deterministic sequence, so that every run writes the same bytes.
    private struct LinearCongruential {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
    }
}
