import RendererEngine

/// A grid a page draws with rules (``PageRule``): lines across and down that touch one
/// another, the edges of a ruled table's rows and columns. ``LayoutAnalysis`` reads the text
/// between them cell by cell.
struct RuledGrid {
    /// Where its lines down the page are, left to right: its columns' edges.
    var columns: [Double]
    /// Where its lines across are, top to bottom: its rows' edges.
    var rows: [Double]

    /// The area between its outer lines.
    var bounds: PageRect {
        PageRect(x: columns.first ?? 0, y: rows.first ?? 0, width: (columns.last ?? 0) - (columns.first ?? 0), height: (rows.last ?? 0) - (rows.first ?? 0))
    }

    /// How far apart, in points, two rules may be and still touch, and two lines be one.
    static let tolerance = 2.0
    /// The most pairs of lines across and down compared on one page: a page that draws more
    /// (a chart's grid, a pattern) has no table read from its rules.
    static let pairLimit = 1_000_000

    /// The grids `rules` draw: each set of rules that touch one another, directly or through
    /// others, with at least three distinct lines across and three down (two rows and two
    /// columns at least), in the order of their first rule.
    static func grids(of rules: [PageRule]) -> [RuledGrid] {
        let across = rules.filter(\.isHorizontal), down = rules.filter { !$0.isHorizontal }
        guard across.count >= 3, down.count >= 3, across.count * down.count <= pairLimit else { return [] }
        var sets = DisjointSets(count: across.count + down.count)
        for (i, line) in across.enumerated() {
            let y = (line.bounds.minY + line.bounds.maxY) / 2
            for (j, other) in down.enumerated() {
                let x = (other.bounds.minX + other.bounds.maxX) / 2
                guard line.bounds.minX - tolerance <= x, x <= line.bounds.maxX + tolerance,
                    other.bounds.minY - tolerance <= y, y <= other.bounds.maxY + tolerance
                else { continue }
                sets.join(i, across.count + j)
            }
        }
        var groups: [Int: (across: [Double], down: [Double])] = [:]
        var order: [Int] = []
        for (index, line) in (across + down).enumerated() {
            let group = sets.root(index)
            if groups[group] == nil { order.append(group) }
            if index < across.count {
                groups[group, default: ([], [])].across.append((line.bounds.minY + line.bounds.maxY) / 2)
            } else {
                groups[group, default: ([], [])].down.append((line.bounds.minX + line.bounds.maxX) / 2)
            }
        }
        return order.compactMap { group in
            let (rows, columns) = (merged(groups[group]!.across), merged(groups[group]!.down))
            return rows.count >= 3 && columns.count >= 3 ? RuledGrid(columns: columns, rows: rows) : nil
        }
    }

    /// The positions in order, those within ``tolerance`` of the one before made one.
    private static func merged(_ positions: [Double]) -> [Double] {
        var out: [Double] = []
        for position in positions.sorted() where out.last.map({ position - $0 > tolerance }) ?? true {
            out.append(position)
        }
        return out
    }
}

/// The lines a page draws down itself, by position across: a row's text is cut where one
/// runs between two of its characters, so that cells set close to their rules stay apart.
struct ColumnRules {
    /// Each line down: where it is across, and from where to where it runs down the page.
    private let lines: [(x: Double, top: Double, bottom: Double)]

    /// The lines down among `rules`.
    init(_ rules: [PageRule]) {
        lines = rules.filter { !$0.isHorizontal }.map { ((($0.bounds.minX + $0.bounds.maxX) / 2), $0.bounds.minY, $0.bounds.maxY) }.sorted { $0.x < $1.x }
    }

    /// True when a line runs down between the middles of `left` and `right` (left to right on
    /// a row) at the height of `right`'s middle.
    func separate(_ left: PageRect, _ right: PageRect) -> Bool {
        let (from, to, y) = ((left.minX + left.maxX) / 2, (right.minX + right.maxX) / 2, (right.minY + right.maxY) / 2)
        guard from < to, !lines.isEmpty else { return false }
        // The first line at or past `from`, by bisection.
        var (low, high) = (0, lines.count)
        while low < high {
            let middle = (low + high) / 2
            if lines[middle].x < from { low = middle + 1 } else { high = middle }
        }
        for line in lines[low...] {
            guard line.x < to else { return false }
            if line.top <= y, y <= line.bottom { return true }
        }
        return false
    }
}
