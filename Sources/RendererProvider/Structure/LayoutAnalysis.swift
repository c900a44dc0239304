import RendererEngine

/// Infers the structure of pages from the layout of their text, for documents without a
/// structure tree: the one algorithm behind ``Document/structuredText(pages:cancellation:)``.
///
/// - Characters are grouped into rows by baseline (the engines' own lines are cut where
///   their characters leave a row), and each row is cut into fragments where a gap wider than
///   1.2 times the font size opens (table cells, columns), never after a leading bullet or
///   number, and where a rule down the page runs between two characters.
/// - A grid of rules (``PageRule``: at least three lines across and three down, each
///   touching the others) is a table whose cells are the spaces between its rules: the
///   fragments inside each are its text, however many lines it takes, read top to bottom.
///   Rows and columns that hold nothing are dropped (double rules), and a grid whose cells
///   hold more than ``ruledCellWordLimit`` words in the median is a frame, not a table.
/// - Runs of two or more other rows of at least two fragments each, whose fragments fall into
///   distinct columns and hold at most four words in the median, are tables.
/// - Text and grids inside a figure's area (a picture, or a figure drawn with paths:
///   ``DrawnFigures``) are part of the figure.
/// - The rest, with the areas of the page's figures, is put in
///   reading order by recursive cuts: along the widest vertical gap that
///   runs through the whole region (columns are read down before across), else along every
///   horizontal one.
/// - In that order, fragments in a monospaced font become code; a fragment larger than the
///   body's size (the size most characters of the pages have) by 15%, or bold at the body's
///   size, is a heading of at most two lines; one that starts with a bullet or a number
///   begins a list item, which fragments indented under it continue; the rest make
///   paragraphs, a new one after a gap of more than 0.7 times the font size, a first-line
///   indent, a change of size, weight or font, or a move up the page.
/// - Heading levels rank the heading sizes found on the pages analysed, sizes within 10% of
///   each other sharing a level; bold text at the body's size ranks below them all.
///   Recognised text has no weight and an estimated size, so a heading is told from a step
///   of 12% in size alone.
struct LayoutAnalysis {
    /// The size of most of the characters.
    let bodySize: Double
    /// The sizes at which each heading level begins, largest first: a heading's level is
    /// one more than the number of these above its size.
    let headingLevels: [Double]
    /// Each page's rows of fragments.
    private let rows: [[[Fragment]]]
    /// The areas of each page's figures.
    private let figures: [[PageRect]]
    /// The grids of rules on each page.
    private let grids: [[RuledGrid]]

    /// An analysis of `pages` with the areas of their figures and the rules they draw (none
    /// for a page without an entry), whose sizes are measured on them all.
    init(pages: [TextPage], figures: [[PageRect]] = [], rules: [[PageRule]] = []) {
        self.figures = figures
        grids = rules.map(RuledGrid.grids(of:))
        let styles = FontStyles()
        rows = pages.enumerated().map { index, page in
            let cuts = ColumnRules(index < rules.count ? rules[index] : [])
            return Self.rows(of: page.lines, styles: styles).map { Self.fragments(of: $0, cutAt: cuts) }
        }
        var counts: [Double: Int] = [:]
        var estimated = 0, reported = 0
        for fragment in rows.joined().joined() {
            counts[Self.rounded(fragment.size), default: 0] += fragment.characterCount
            if fragment.sizeIsEstimated { estimated += fragment.characterCount } else { reported += fragment.characterCount }
        }
        let body = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? 10
        bodySize = body
        // Recognised text has no weight: a heading is told from its size alone, by a smaller step.
        let ratio = estimated > reported ? 1.12 : 1.15
        headingRatio = ratio
        var levels: [Double] = []
        for size in counts.keys.filter({ $0 >= body * ratio }).sorted(by: >) where levels.last.map({ size < $0 * (1 - Self.sizeTolerance) }) ?? true {
            levels.append(size)
        }
        headingLevels = levels
    }

    /// How much larger than the body's a heading's size is.
    private let headingRatio: Double
    /// How much two sizes may differ and still be one.
    private static let sizeTolerance = 0.1

    /// Each page's elements in reading order, and the areas of its figures in the order of
    /// its figure elements, in the order of the pages given.
    var pages: [(elements: [StructuredText.Element], figureAreas: [PageRect])] {
        rows.enumerated().map { page, rows in
            let areas = page < figures.count ? figures[page] : []
            var units = areas.map(Unit.figure)
            // What lies inside a figure (a chart's labels, its grid) is part of it.
            func inFigure(_ bounds: PageRect) -> Bool { areas.contains { $0.contains(middleOf: bounds) } }
            var rows = areas.isEmpty ? rows : rows.map { $0.filter { !inFigure($0.bounds) } }.filter { !$0.isEmpty }
            for grid in page < grids.count ? grids[page] : [] where !inFigure(grid.bounds) {
                guard let (table, rest) = Self.table(ruledBy: grid, rows: rows) else { continue }
                units.append(.table(table))
                rows = rest
            }
            var index = 0
            while index < rows.count {
                var end = index
                while end < rows.count, rows[end].count >= 2 { end += 1 }
                if end - index >= 2, let table = Self.table(of: Array(rows[index..<end])) {
                    units.append(.table(table))
                } else {
                    end = max(end, index + 1)
                    units += rows[index..<end].joined().map(Unit.fragment)
                }
                index = end
            }
            return blocks(of: readingOrder(units))
        }
    }

    // MARK: - Fragments

    /// A character as the analysis reads it: its box measured once, its font's style looked
    /// up once per font.
    struct Glyph {
        var text: String
        var box: PageRect
        var isWhitespace: Bool
        var fontSize: Double?
        var isRecognised: Bool
        var bold: Bool
        var monospaced: Bool
    }

    /// Whether a font's name says it is bold or monospaced, read once per name.
    final class FontStyles {
        private var styles: [String: (bold: Bool, monospaced: Bool)] = [:]

        func style(of name: String?) -> (bold: Bool, monospaced: Bool) {
            guard let name else { return (false, false) }
            if let known = styles[name] { return known }
            let lower = name.lowercased()
            let style = (
                bold: ["bold", "black", "heavy", "demi", "medi"].contains { lower.contains($0) },
                monospaced: ["mono", "courier", "typewriter", "consol", "cmtt", "sftt", "code"].contains { lower.contains($0) }
            )
            styles[name] = style
            return style
        }
    }

    /// A run of a line's characters without a wide gap.
    struct Fragment {
        var text: String
        var bounds: PageRect
        /// The font size the engine reports (the median of the characters'), or one
        /// estimated from the height of the text (recognised text's sizes are estimates).
        var size: Double
        var sizeIsEstimated: Bool
        var bold: Bool
        var monospaced: Bool
        var wordCount: Int
        var characterCount: Int
    }

    /// A row's characters cut where wide gaps open or a line down the page runs between
    /// two of them (`cuts`), left to right.
    private static func fragments(of row: [Glyph], cutAt cuts: ColumnRules) -> [Fragment] {
        var runs: [[Glyph]] = [[]]
        var previous: Glyph?
        for character in row {
            if character.isWhitespace {
                runs[runs.count - 1].append(character)
                continue
            }
            if let previous {
                let gap = character.box.minX - previous.box.maxX
                let current = runs[runs.count - 1]
                if (gap > 1.2 * Self.size(of: previous) && !Self.isMarker(current)) || cuts.separate(previous.box, character.box) {
                    runs.append([])
                }
            }
            runs[runs.count - 1].append(character)
            previous = character
        }
        return runs.compactMap { run in
            let visible = run.filter { !$0.isWhitespace }
            guard !visible.isEmpty else { return nil }
            let text = Self.text(of: run)
            let reported = visible.compactMap(\.fontSize).sorted()
            // Without a size, take the line's height: the ascenders' and descenders' span.
            let size = reported.isEmpty ? visible.map(\.box.size.height).max()! * 0.8 : reported[reported.count / 2]
            let bold = visible.filter(\.bold).count * 2 > visible.count
            let monospaced = visible.filter(\.monospaced).count * 2 > visible.count
            return Fragment(
                text: text, bounds: PageRect.enclosing(visible.map(\.box)), size: size, sizeIsEstimated: reported.isEmpty || visible.contains(where: \.isRecognised), bold: bold,
                monospaced: monospaced, wordCount: text.split(whereSeparator: \.isWhitespace).count, characterCount: visible.count)
        }
    }

    /// The characters' text, with a space where a gap of a fifth of the font size opens
    /// between two characters the engine left unspaced.
    private static func text(of characters: [Glyph]) -> String {
        var out = ""
        var previous: Glyph?
        for character in characters {
            if let previous, !previous.isWhitespace, !character.isWhitespace,
                character.box.minX - previous.box.maxX > 0.2 * size(of: previous)
            {
                out += " "
            }
            out += character.text
            previous = character
        }
        return out.trimmingWhitespace
    }

    private static func size(of character: Glyph) -> Double {
        character.fontSize ?? character.box.size.height
    }

    private static func rounded(_ size: Double) -> Double { (size * 2).rounded() / 2 }

    /// True when the characters so far are a list's bullet or number.
    private static func isMarker(_ characters: [Glyph]) -> Bool {
        let text = Self.text(of: characters)
        return !text.isEmpty && ListMarker(text + " x")?.rest == "x"
    }

    /// The characters of the page in rows that share a baseline, top to bottom. The engine's
    /// lines are first cut where their characters leave the row or jump back (an engine may
    /// join what lies on different rows), and the pieces of a row are put left to right.
    private static func rows(of lines: [TextLine], styles: FontStyles) -> [[Glyph]] {
        var pieces: [(bounds: PageRect, characters: [Glyph])] = []
        for line in lines {
            var piece: [Glyph] = []
            var last: PageRect?
            for source in line.characters {
                let style = styles.style(of: source.fontName)
                let character = Glyph(
                    text: source.text, box: source.quad.bounds, isWhitespace: source.isWhitespace, fontSize: source.fontSize,
                    isRecognised: source.confidence != nil, bold: style.bold, monospaced: style.monospaced)
                let box = character.box
                if !character.isWhitespace, let previous = last,
                    !sameRow(previous, box) || box.minX < previous.minX - size(of: character)
                {
                    pieces.append((PageRect.enclosing(piece.filter { !$0.isWhitespace }.map(\.box)), piece))
                    piece = []
                }
                piece.append(character)
                if !character.isWhitespace { last = box }
            }
            if piece.contains(where: { !$0.isWhitespace }) {
                pieces.append((PageRect.enclosing(piece.filter { !$0.isWhitespace }.map(\.box)), piece))
            }
        }
        var rows: [[(bounds: PageRect, characters: [Glyph])]] = []
        for piece in pieces.sorted(by: { $0.bounds.minY + $0.bounds.maxY < $1.bounds.minY + $1.bounds.maxY }) {
            if let first = rows.last?.first, sameRow(first.bounds, piece.bounds) {
                rows[rows.count - 1].append(piece)
            } else {
                rows.append([piece])
            }
        }
        return rows.map { row in row.sorted { $0.bounds.minX < $1.bounds.minX }.flatMap(\.characters) }
    }

    private static func sameRow(_ a: PageRect, _ b: PageRect) -> Bool {
        let overlap = min(a.maxY, b.maxY) - max(a.minY, b.minY)
        return overlap > 0.5 * min(a.size.height, b.size.height)
    }

    // MARK: - Tables

    /// A table's rows and bounds.
    struct Table {
        var rows: [[String]]
        var bounds: PageRect
    }

    private static func table(of rows: [[Fragment]]) -> Table? {
        let columns = Self.spans(rows.joined().map { ($0.bounds.minX, $0.bounds.maxX) }, gap: 0)
        guard columns.count >= 2, columns.count <= 30 else { return nil }
        let words = rows.joined().map(\.wordCount).sorted()
        guard words[words.count / 2] <= 4 else { return nil }
        var cells: [[String]] = []
        for row in rows {
            var line = Array(repeating: "", count: columns.count)
            for fragment in row {
                guard let column = columns.firstIndex(where: { $0.0 <= fragment.bounds.minX && fragment.bounds.maxX <= $0.1 }),
                    line[column].isEmpty
                else { return nil }
                line[column] = fragment.text
            }
            cells.append(line)
        }
        return Table(rows: cells, bounds: PageRect.enclosing(rows.joined().map(\.bounds)))
    }

    /// The most words a ruled table's cells hold in the median: more, and the rules frame
    /// text, not cells.
    static let ruledCellWordLimit = 25

    /// The table `grid` rules over `rows`' fragments, and the rows without those fragments;
    /// nil when its cells hold fewer than two columns of text, or too many words. A row of
    /// the grid whose filled cells all hold text on the same lines, more than one, is that
    /// many rows of the table (a table ruled between columns but not between rows).
    private static func table(ruledBy grid: RuledGrid, rows: [[Fragment]]) -> (Table, [[Fragment]])? {
        typealias Placed = (row: Int, fragment: Fragment)
        var cells: [[[Placed]]] = Array(repeating: Array(repeating: [], count: grid.columns.count - 1), count: grid.rows.count - 1)
        var rest: [[Fragment]] = []
        var inside: [PageRect] = []
        for (index, row) in rows.enumerated() {
            var kept: [Fragment] = []
            for fragment in row {
                let (x, y) = ((fragment.bounds.minX + fragment.bounds.maxX) / 2, (fragment.bounds.minY + fragment.bounds.maxY) / 2)
                guard x < grid.columns.last!, y < grid.rows.last!,
                    let column = grid.columns.dropLast().lastIndex(where: { $0 <= x }),
                    let line = grid.rows.dropLast().lastIndex(where: { $0 <= y })
                else {
                    kept.append(fragment)
                    continue
                }
                cells[line][column].append((index, fragment))
                inside.append(fragment.bounds)
            }
            if !kept.isEmpty { rest.append(kept) }
        }
        var bands: [[[Fragment]]] = []
        for band in cells {
            let filled = band.filter { !$0.isEmpty }
            guard let first = filled.first else { continue }
            let lines = Set(first.map(\.row))
            if lines.count > 1, filled.count > 1, filled.allSatisfy({ Set($0.map(\.row)) == lines }) {
                for line in lines.sorted() { bands.append(band.map { $0.filter { $0.row == line }.map(\.fragment) }) }
            } else {
                bands.append(band.map { $0.map(\.fragment) })
            }
        }
        let usedColumns = (0..<(grid.columns.count - 1)).filter { column in bands.contains { !$0[column].isEmpty } }
        let texts: [[String]] = bands.map { band in
            usedColumns.map { column in
                Self.joined(band[column].sorted { ($0.bounds.minY, $0.bounds.minX) < ($1.bounds.minY, $1.bounds.minX) }.map(\.text))
            }
        }
        let words = texts.joined().filter { !$0.isEmpty }.map { $0.split(whereSeparator: \.isWhitespace).count }.sorted()
        guard usedColumns.count >= 2, !words.isEmpty, words[words.count / 2] <= Self.ruledCellWordLimit else { return nil }
        return (Table(rows: texts, bounds: PageRect.enclosing(inside)), rest)
    }

    /// The intervals' union as disjoint spans, left to right; spans closer than `gap` join.
    private static func spans(_ intervals: [(Double, Double)], gap: Double) -> [(Double, Double)] {
        var spans: [(Double, Double)] = []
        for interval in intervals.sorted(by: { $0.0 < $1.0 }) {
            if let last = spans.last, interval.0 <= last.1 + gap {
                spans[spans.count - 1].1 = max(last.1, interval.1)
            } else {
                spans.append(interval)
            }
        }
        return spans
    }

    // MARK: - Reading order

    enum Unit {
        case fragment(Fragment)
        case table(Table)
        /// A figure's area.
        case figure(PageRect)

        var bounds: PageRect {
            switch self {
            case .fragment(let fragment): fragment.bounds
            case .table(let table): table.bounds
            case .figure(let area): area
            }
        }
    }

    private func readingOrder(_ units: [Unit]) -> [Unit] {
        guard units.count > 1 else { return units }
        let across = Self.spans(units.map { ($0.bounds.minX, $0.bounds.maxX) }, gap: max(bodySize, 6))
        if across.count > 1 {
            return across.flatMap { span in readingOrder(units.filter { span.0 <= $0.bounds.minX && $0.bounds.maxX <= span.1 }) }
        }
        let down = Self.spans(units.map { ($0.bounds.minY, $0.bounds.maxY) }, gap: 0)
        if down.count > 1 {
            return down.flatMap { span in readingOrder(units.filter { span.0 <= $0.bounds.minY && $0.bounds.maxY <= span.1 }) }
        }
        return units.sorted { ($0.bounds.minY, $0.bounds.minX) < ($1.bounds.minY, $1.bounds.minX) }
    }

    // MARK: - Blocks

    private func headingLevel(of fragment: Fragment) -> Int? {
        let size = Self.rounded(fragment.size)
        if size >= bodySize * headingRatio { return min(headingLevels.filter { size < $0 * (1 - Self.sizeTolerance) }.count + 1, 6) }
        if fragment.bold, size >= bodySize * (1 - Self.sizeTolerance) { return min(headingLevels.count + 1, 6) }
        return nil
    }

    private func sameSize(_ a: Fragment, _ b: Fragment) -> Bool {
        max(a.size, b.size) <= min(a.size, b.size) * (1 + Self.sizeTolerance)
    }

    /// The paragraph, heading or list being gathered.
    private enum Open {
        case paragraph([String])
        case code([String])
        case heading(level: Int, [String])
        case list(ordered: Bool, items: [[String]], markerX: Double)
    }

    private func blocks(of units: [Unit]) -> (elements: [StructuredText.Element], figureAreas: [PageRect]) {
        var elements: [StructuredText.Element] = []
        var figureAreas: [PageRect] = []
        var open: Open?
        var previous: Fragment?
        func close() {
            switch open {
            case .paragraph(let lines): elements.append(.paragraph(Self.joined(lines)))
            case .code(let lines): elements.append(.code(lines.joined(separator: "\n")))
            case .heading(let level, let lines): elements.append(.heading(level: level, text: Self.joined(lines)))
            case .list(let ordered, let items, _): elements.append(.list(ordered: ordered, items: items.map(Self.joined)))
            case nil: break
            }
            open = nil
        }
        for unit in units {
            guard case .fragment(let fragment) = unit else {
                close()
                if case .table(let table) = unit { elements.append(.table(rows: table.rows)) }
                if case .figure(let area) = unit {
                    elements.append(.figure(alternateText: nil))
                    figureAreas.append(area)
                }
                previous = nil
                continue
            }
            defer { previous = fragment }
            let level = headingLevel(of: fragment)
            let gap = previous.map { fragment.bounds.minY - $0.bounds.maxY } ?? .infinity
            let breaks = previous == nil || gap > 0.7 * fragment.size || gap < -fragment.size / 2
                || !sameSize(previous!, fragment) || previous!.bold != fragment.bold
                || previous!.monospaced != fragment.monospaced
            if fragment.monospaced {
                if !breaks, case .code(var lines) = open {
                    lines.append(fragment.text)
                    open = .code(lines)
                } else {
                    close()
                    open = .code([fragment.text])
                }
                continue
            }
            if let level {
                if !breaks, case .heading(let current, var lines) = open, current == level, lines.count < 2 {
                    lines.append(fragment.text)
                    open = .heading(level: level, lines)
                } else {
                    close()
                    open = .heading(level: level, [fragment.text])
                }
                continue
            }
            if let marker = ListMarker(fragment.text) {
                let markerX = fragment.bounds.minX
                if !(gap > 2 * fragment.size), case .list(let ordered, var items, _) = open, ordered == marker.ordered {
                    items.append([marker.rest])
                    open = .list(ordered: ordered, items: items, markerX: markerX)
                } else {
                    close()
                    open = .list(ordered: marker.ordered, items: [[marker.rest]], markerX: markerX)
                }
                continue
            }
            if !breaks, case .list(let ordered, var items, let markerX) = open, fragment.bounds.minX > markerX + fragment.size / 2 {
                items[items.count - 1].append(fragment.text)
                open = .list(ordered: ordered, items: items, markerX: markerX)
                continue
            }
            let indented = previous.map { fragment.bounds.minX > $0.bounds.minX + 0.8 * fragment.size } ?? false
            if !breaks, !indented, case .paragraph(var lines) = open {
                lines.append(fragment.text)
                open = .paragraph(lines)
            } else {
                close()
                open = .paragraph([fragment.text])
            }
        }
        close()
        return (elements, figureAreas)
    }

    /// Lines joined by spaces; a word a hyphen broke at a line's end is joined again when the
    /// next line goes on in lower case.
    static func joined(_ lines: [String]) -> String {
        var out = ""
        for line in lines { join(line, onto: &out) }
        return out
    }

    /// Appends `line` to `out` as ``joined(_:)`` joins lines.
    static func join(_ line: String, onto out: inout String) {
        if out.isEmpty {
            out = line
        } else if out.hasSuffix("\u{AD}") {
            out.removeLast()
            out += line
        } else if out.hasSuffix("-"), out.dropLast().last?.isLetter == true, line.first?.isLowercase == true {
            out.removeLast()
            out += line
        } else {
            out += " " + line
        }
    }
}

/// A list item's bullet or number at the start of a line, and the text after it.
struct ListMarker {
    var ordered: Bool
    var rest: String

    /// The characters that begin an item of a bulleted list.
    static let bullets: Set<Character> = ["•", "◦", "▪", "‣", "●", "○", "■", "□", "–", "—", "-", "*", "·", "►", "✓"]

    /// The marker that begins `line` (a bullet, a number or a single letter followed by `.`
    /// or `)`, or a number in parentheses, and then a space), or nil.
    init?(_ line: String) {
        guard let first = line.first else { return nil }
        var marker: Substring
        if Self.bullets.contains(first) {
            ordered = false
            marker = line.prefix(1)
        } else {
            ordered = true
            let head = line.prefix { !$0.isWhitespace }
            let body = head.hasPrefix("(") && head.hasSuffix(")") ? head.dropFirst().dropLast() : head.dropLast()
            guard let end = head.last, head.count >= 2, head.count <= 5, ".)".contains(end) || head.hasPrefix("("),
                body.allSatisfy(\.isNumber) || (body.count == 1 && body.first!.isLetter)
            else { return nil }
            marker = head
        }
        let rest = line.dropFirst(marker.count)
        guard let space = rest.first, space.isWhitespace else { return nil }
        self.rest = String(rest).trimmingWhitespace
        guard !self.rest.isEmpty else { return nil }
    }
}
