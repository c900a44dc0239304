import Testing

@testable import RendererProvider

/// The grouping of shapes into figures (`DrawnFigures`) on drawings made here: three bars on
/// an axis are one figure with the tick below them; bars with words in them (a table's shaded
/// rows) are none; and a page that needs more comparisons than the bound has none.
@Suite("Figures found in shapes")
struct DrawnFiguresTests {
    static let page = PageSize(width: 612, height: 792)

    /// A word of one character box at `rect`.
    static func word(_ text: String, _ rect: PageRect) -> TextWord {
        TextWord(characters: [TextCharacter(text: text, quad: Quad(rect), fontSize: 9)])
    }

    /// Three bars 40 wide standing on an axis across y 400, from x 100 to 300.
    static let chart = PageDrawing(
        rules: [PageRule(pageIndex: 0, bounds: PageRect(x: 100, y: 399.5, width: 200, height: 1))],
        shapes: [120, 180, 240].map { PageShape(pageIndex: 0, bounds: PageRect(x: $0, y: 300, width: 40, height: 100), isRectangle: true) })

    @Test func barsOnAnAxisAreOneFigureWithTheirTicks() {
        let ticks = [Self.word("Q1", PageRect(x: 130, y: 403, width: 12, height: 9)), Self.word("Quarterly", PageRect(x: 150, y: 403, width: 40, height: 9))]
        let areas = DrawnFigures.areas(of: Self.chart, words: ticks, page: Self.page)
        // The bars and the axis, and "Q1" below it; "Quarterly" is no tick.
        #expect(areas == [PageRect(x: 100, y: 300, width: 200, height: 112)], "\(areas)")
    }

    @Test func barsBehindWordsAreNoFigure() {
        let words = [130, 190, 250].map { Self.word("row", PageRect(x: Double($0), y: 340, width: 20, height: 9)) }
        #expect(DrawnFigures.areas(of: Self.chart, words: words, page: Self.page).isEmpty)
    }

    @Test func aPagePastTheBoundHasNone() {
        // Three bars apart and one rule: no two bars compared (each ends before the next
        // begins), the rule with the three bars, three steps over the rule: 6.
        #expect(DrawnFigures.areas(of: Self.chart, words: [], page: Self.page, comparisonLimit: 6).count == 1)
        #expect(DrawnFigures.areas(of: Self.chart, words: [], page: Self.page, comparisonLimit: 5).isEmpty)
    }
}
