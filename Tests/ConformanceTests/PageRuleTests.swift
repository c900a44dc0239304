import Foundation
import RendererProvider
import Testing
import TestSupport

/// What pages draw with paths (`Document.drawing(pages:)`), read over the PDF objects for
/// both engines: where pdfplumber (pdfminer's interpreter, which shares no code with either)
/// sees the lines LibreOffice ruled a table with; what counts as a rule or a shape on a
/// hand-made page; and a page that draws far too many, or one endless path, gives a bounded
/// list.
@Suite("Rules pages draw")
struct PageRuleTests {
    @Test(arguments: ["mupdf", "poppler"])
    func rulesAreWherePdfplumberSeesThem(backend: String) async throws {
        let script = """
            import json, sys, pdfplumber
            with pdfplumber.open(sys.argv[1]) as pdf:
                print(json.dumps([[l["x0"], l["top"], l["x1"], l["bottom"], l["linewidth"]] for l in pdf.pages[0].lines]))
            """
        let plumber = try await Tool.run("python3", ["-c", script, Fixtures.path("office.pdf")])
        try #require(plumber.status == 0, "\(plumber.stderr)")
        let seen = try #require(try JSONSerialization.jsonObject(with: plumber.stdout) as? [[Double]])
        let rules = try Fixtures.open("office.pdf", backend: backend).drawing(pages: [0]).rules
        // The table's five lines across and four down, and the underline of its link.
        #expect(seen.count == 10 && rules.count == seen.count, "\(rules) against \(seen)")
        // pdfplumber gives a line's centre; a rule is as thick as its line.
        let ours = rules.map { rule -> [Double] in
            let b = rule.bounds
            return rule.isHorizontal
                ? [b.minX, (b.minY + b.maxY) / 2, b.maxX, (b.minY + b.maxY) / 2, b.size.height]
                : [(b.minX + b.maxX) / 2, b.minY, (b.minX + b.maxX) / 2, b.maxY, b.size.width]
        }
        let sorted = { (lines: [[Double]]) in lines.sorted { $0.lexicographicallyPrecedes($1) } }
        for (mine, theirs) in zip(sorted(ours), sorted(seen)) {
            #expect(zip(mine, theirs).allSatisfy { abs($0 - $1) < 0.01 }, "\(mine) against \(theirs)")
        }
    }

    /// A page 200 x 100 points: under a scale of 2, a stroked line across (width 0.5, so 1
    /// point thick) and a filled rectangle 1 x 40 (a rule down); a line askew, a curve, a
    /// filled square, a stroke 5 points wide, a clipping path and an outline too thick for a
    /// line are none; a form with its own matrix draws one across. The line askew, the curve
    /// and the square are shapes, and so is a filled triangle; the clipping path is not, nor is
    /// what an annotation's appearance draws. Turned by 90 degrees, the page's rules and shapes
    /// turn with it.
    @Test(arguments: ["mupdf", "poppler"], [0, 90])
    func whatCountsAsARuleOrAShape(backend: String, rotation: Int) throws {
        let content = """
            q 2 0 0 2 0 0 cm 0.5 w 10 40 m 60 40 l S
            20 5 0.5 20 re f Q
            10 10 m 50 30 l S 10 10 m 20 30 40 30 50 10 c S 150 10 20 20 re f
            5 w 10 90 m 190 90 l S 1 w 120 60 50 1 re W n 0 0 200 100 re S
            q /Fm Do Q
            100 20 m 120 20 l 110 35 l f
            """
        let form = "0 0 m 30 0 l S"
        let appearance = "0 0 m 10 10 l S 0 0 20 20 re f"
        let data = HandMadePDF.data([
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Rotate \(rotation) /Contents 4 0 R /Resources << /XObject << /Fm 5 0 R >> >> /Annots [6 0 R] >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            "<< /Type /XObject /Subtype /Form /BBox [0 0 100 100] /Matrix [1 0 0 1 100 70] /Length \(form.utf8.count) >>\nstream\n\(form)\nendstream",
            "<< /Type /Annot /Subtype /Square /Rect [60 60 80 80] /AP << /N 7 0 R >> >>",
            "<< /Type /XObject /Subtype /Form /BBox [0 0 20 20] /Length \(appearance.utf8.count) >>\nstream\n\(appearance)\nendstream",
        ])
        let document = try Fixtures.conformanceRegistry.open(.memory(data), renderer: .id(backend))
        let drawing = try document.drawing(pages: [0])
        let rules = drawing.rules
        // In user space (y up): across 20...120 at y 80, 1 thick; down at x 40.5, y 10...50,
        // 1 thick; across 100...130 at y 70, 1 thick. The frame of the page (stroked
        // 0 0 200 100 re, width 1) gives its four edges.
        var expected: [PageRect] = [
            PageRect(x: 20, y: 100 - 80 - 0.5, width: 100, height: 1),
            PageRect(x: 40, y: 100 - 50, width: 1, height: 40),
            PageRect(x: 100, y: 100 - 70 - 0.5, width: 30, height: 1),
            PageRect(x: 0, y: 100 - 0.5, width: 200, height: 1), PageRect(x: 199.5, y: 0, width: 1, height: 100),
            PageRect(x: 0, y: -0.5, width: 200, height: 1), PageRect(x: -0.5, y: 0, width: 1, height: 100),
        ]
        // The line askew and the curve (its control points included) over x 10...50, y 10...30;
        // the square; the triangle.
        var shapes: [(PageRect, Bool)] = [
            (PageRect(x: 10, y: 100 - 30, width: 40, height: 20), false), (PageRect(x: 10, y: 100 - 30, width: 40, height: 20), false),
            (PageRect(x: 150, y: 100 - 30, width: 20, height: 20), true), (PageRect(x: 100, y: 100 - 35, width: 20, height: 15), false),
        ]
        if rotation == 90 {
            // Turned a quarter clockwise, what was at (x, y) from the top-left corner shows at
            // (100 - y, x): the page is now 100 wide and 200 high.
            let turned = { (rect: PageRect) in PageRect(x: 100 - rect.maxY, y: rect.minX, width: rect.size.height, height: rect.size.width) }
            expected = expected.map(turned)
            shapes = shapes.map { (turned($0.0), $0.1) }
        }
        let key = { (rect: PageRect) in [rect.minX, rect.minY, rect.size.width, rect.size.height].map { ($0 * 100).rounded() / 100 } }
        let sorted = { (keys: [[Double]]) in keys.sorted { $0.lexicographicallyPrecedes($1) } }
        #expect(sorted(rules.map { key($0.bounds) }) == sorted(expected.map(key)), "\(rules)")
        #expect(sorted(drawing.shapes.map { key($0.bounds) + [$0.isRectangle ? 1 : 0] }) == sorted(shapes.map { key($0.0) + [$0.1 ? 1 : 0] }), "\(drawing.shapes)")
        #expect(Set(drawing.shapes.map(\.pageIndex) + rules.map(\.pageIndex)) == [0])
    }

    /// A page that strokes 20,000 lines and fills 20,000 triangles lists the first
    /// ``pageRuleLimit`` rules and ``pageShapeLimit`` shapes; a path of 150,000
    /// segments is read without keeping them all; the next page is read as usual.
    @Test(arguments: ["mupdf", "poppler"])
    func tooManyRulesAreBounded(backend: String) throws {
        // 20,000 lines stroked at once, and 20,000 triangles filled one by one.
        let many = (0..<20_000).map { "0 \(Double($0) / 200) m 100 \(Double($0) / 200) l" }.joined(separator: " ") + " S "
            + (0..<20_000).map { "0 \(Double($0) / 200) m 5 \(Double($0) / 200) l 2 \(Double($0) / 200 + 3) l f" }.joined(separator: " ")
        let endless = "0 0 m " + (0..<150_000).map { "\($0 % 2 == 0 ? 100 : 0) \(Double($0) / 3000) l" }.joined(separator: " ") + " S"
        let third = "10 10 m 90 10 l S"
        let data = HandMadePDF.data([
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 6 0 R >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 7 0 R >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 8 0 R >>",
            "<< /Length \(many.utf8.count) >>\nstream\n\(many)\nendstream",
            "<< /Length \(endless.utf8.count) >>\nstream\n\(endless)\nendstream",
            "<< /Length \(third.utf8.count) >>\nstream\n\(third)\nendstream",
        ])
        let document = try Fixtures.conformanceRegistry.open(.memory(data), renderer: .id(backend))
        let drawing = try document.drawing(pages: [0, 1, 2])
        let rules = Dictionary(grouping: drawing.rules, by: \.pageIndex)
        #expect(rules[0]?.count == 10_000 && (rules[1]?.count ?? 0) <= 10_000 && rules[2]?.count == 1, "\(rules.mapValues(\.count))")
        #expect(drawing.shapes.count == 10_000 && drawing.shapes.allSatisfy { $0.pageIndex == 0 && !$0.isRectangle })
        #expect(rules[2]?.first?.bounds == PageRect(x: 10, y: 89.5, width: 80, height: 1))
    }
}
