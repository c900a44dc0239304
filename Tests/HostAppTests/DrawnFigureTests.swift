import Foundation
import RendererProvider
import Testing
import TestSupport

/// Figures drawn with paths on untagged pages (`DrawnFigures`): a bar chart with a trend line,
/// its axes, grid lines and labels becomes one figure in reading order, where pdfplumber sees
/// its graphics; shaded table rows and a framed paragraph are no figure.
@Suite("Figures drawn with paths")
struct DrawnFigureTests {
    /// Page 1 (US Letter): a heading and a paragraph; a bar chart (x 100...400, y 420...620
    /// from the bottom) of four filled bars, a trend line, axes and two grid lines, ticks
    /// beside its axes (`Q1` to `Q4` below, `0`, `80` and `160` left) and `2026` inside it;
    /// a caption 17 points below the ticks, and a paragraph. Page 2: a table of three columns
    /// whose four rows are shaded (a filled rectangle behind each, no rules), and a paragraph
    /// framed by a stroked rectangle with round corners.
    static let document: Data = {
        func text(_ size: Double, _ x: Double, _ y: Double, _ string: String) -> String {
            "BT /F1 \(size) Tf 1 0 0 1 \(x) \(y) Tm (\(string)) Tj ET"
        }
        let chart = [
            text(20, 72, 740, "Quarterly results"),
            text(11, 72, 710, "Sales rose in every quarter of the year, as the chart"),
            text(11, 72, 696, "below shows for each of the four quarters."),
            "1 w 100 420 m 400 420 l S 100 420 m 100 640 l S",
            "0.5 w 100 500 m 400 500 l S 100 580 m 400 580 l S",
            "0.3 0.5 0.8 rg 130 420 40 60 re f 200 420 40 100 re f 270 420 40 140 re f 340 420 40 180 re f 0 g",
            "1 w 150 480 m 220 520 l 290 560 l 360 600 l S",
            text(9, 144, 408, "Q1"), text(9, 214, 408, "Q2"), text(9, 284, 408, "Q3"), text(9, 354, 408, "Q4"),
            text(9, 92, 417, "0"), text(9, 87, 497, "80"), text(9, 83, 577, "160"),
            text(9, 240, 610, "2026"),
            text(11, 150, 380, "Figure 1: Sales by quarter, in thousands of euros."),
            text(11, 72, 340, "The fourth quarter was the strongest of the year."),
        ].joined(separator: "\n")
        let rows = [["Item", "Count", "Price"], ["Pens", "12", "3.40"], ["Paper", "500", "4.99"], ["Ink", "2", "18.00"]]
        let table = rows.enumerated().map { row, cells in
            let y = 700 - Double(row) * 20
            return "\(row % 2 == 0 ? "0.85" : "0.95") g 72 \(y - 5) 300 18 re f 0 g "
                + cells.enumerated().map { column, cell in text(11, 80 + Double(column) * 100, y, cell) }.joined(separator: " ")
        }.joined(separator: "\n")
        // A frame with corners of radius 6 around two lines of a paragraph.
        let frame = "1 w 78 500 m 374 500 l 377 500 380 503 380 506 c 380 544 l 380 547 377 550 374 550 c 78 550 l 75 550 72 547 72 544 c 72 506 l 72 503 75 500 78 500 c S"
        let boxed = [frame, text(11, 80, 534, "Orders placed before noon leave the same day;"), text(11, 80, 518, "later orders leave the next working day.")]
            .joined(separator: "\n")
        let font = "/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"
        return HandMadePDF.data([
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R \(font) >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 6 0 R \(font) >>",
            "<< /Length \(chart.utf8.count) >>\nstream\n\(chart)\nendstream",
            "<< /Length \((table + "\n" + boxed).utf8.count) >>\nstream\n\(table + "\n" + boxed)\nendstream",
        ])
    }()

    /// The chart's elements, then page 2's.
    static let expected: [StructureCommandTests.Element] = [
        "h1 Quarterly results",
        "p Sales rose in every quarter of the year, as the chart below shows for each of the four quarters.",
        "figure ",
        "p Figure 1: Sales by quarter, in thousands of euros.",
        "p The fourth quarter was the strongest of the year.",
        "table Item | Count | Price / Pens | 12 | 3.40 / Paper | 500 | 4.99 / Ink | 2 | 18.00",
        "p Orders placed before noon leave the same day; later orders leave the next working day.",
    ]

    /// Each engine, and Poppler isolated, gives the chart as one figure between its paragraph
    /// and its caption, none of its labels as text, and page 2's table and framed paragraph
    /// as they are.
    @Test(arguments: [["--renderer", "mupdf"], ["--renderer", "poppler"], ["--renderer", "poppler", "--isolate"]])
    func aChartIsOneFigure(options: [String]) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("chart.pdf").path
        try Self.document.write(to: URL(fileURLWithPath: input))
        let output = folder.appendingPathComponent("chart.md").path
        let written = try await Tool.run(HostAppTests.executable, ["text", "--format", "markdown", "-o", output] + options + [input])
        try #require(written.status == 0, "\(written.stderr)")
        let elements = try await StructureCommandTests.witnessElements(output)
        #expect(elements == Self.expected, "\(elements)")
    }

    /// The chart's figure covers what pdfplumber (pdfminer's interpreter) sees drawn on page 1
    /// (its rectangles, lines and curves) and the tick labels beside it, and no more than 8
    /// points past them; page 2 has none.
    @Test(arguments: ["mupdf", "poppler"])
    func theFigureIsWherePdfplumberSeesTheChart(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("chart.pdf").path
        try Self.document.write(to: URL(fileURLWithPath: input))
        let script = """
            import json, sys, pdfplumber
            with pdfplumber.open(sys.argv[1]) as pdf:
                page = pdf.pages[0]
                drawn = page.rects + page.lines + page.curves
                ticks = [w for w in page.extract_words() if w["text"] in ("Q1", "Q2", "Q3", "Q4", "0", "80", "160")]
                boxes = [(o["x0"], o["top"], o["x1"], o["bottom"]) for o in drawn + ticks]
                print(json.dumps([min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)]))
            """
        let plumber = try await Tool.run("python3", ["-c", script, input])
        try #require(plumber.status == 0, "\(plumber.stderr)")
        let seen = try #require(try JSONSerialization.jsonObject(with: plumber.stdout) as? [Double])
        let document = try await Fixtures.registry.open(.memory(Self.document), renderer: .id(backend))
        let pages = [(0, try await document.textPage(pageAt: 0)), (1, try await document.textPage(pageAt: 1))]
        let areas = try document.figureAreas(of: pages)
        let area = try #require(areas[0]?.first)
        #expect(areas[0]?.count == 1 && areas[1] == nil, "\(areas)")
        let edges = [area.minX, area.minY, area.maxX, area.maxY]
        // Ours holds pdfplumber's (an engine's glyph box may be a little taller) within 8 points.
        let holds = edges[0] <= seen[0] + 1 && edges[1] <= seen[1] + 1 && edges[2] >= seen[2] - 1 && edges[3] >= seen[3] - 1
        let close = zip(edges, seen).allSatisfy { abs($0 - $1) <= 8 }
        #expect(holds && close, "\(edges) against \(seen)")
        // The page's structure places that area with its figure element (reading mode
        // shows it from there); page 2 has no figure and no area.
        let structure = try document.structuredText(pages: [0, 1])
        let figures = structure.pages[0].elements.filter { if case .figure = $0 { true } else { false } }
        #expect(figures.count == 1 && structure.pages[0].figureAreas == [area], "\(String(describing: structure.pages[0].figureAreas))")
        #expect(structure.pages[1].figureAreas == [])
    }
}
