import RendererEngine

/// The figures a page draws with paths (charts, diagrams), found in its ``PageDrawing``:
/// shapes that touch one another, directly or through others or through a rule they touch
/// (the bars standing on an axis), with the rules that touch them, directly or through at
/// most two others (axes, ticks, grid lines).
///
/// A shape is left out when it covers half the page or more (a background), and when it is
/// an upright rectangle with a word's middle inside it (a table row's shading, a box behind
/// text). A group of what is left is a figure when it is at least
/// ``Document/minimumFigureSide`` points wide and high and covers less than half the page,
/// when it has a shape other than a rectangle or at least ``leastRectangles`` rectangles (the
/// bars of a chart; one box is ornament), and when words cover at most ``wordCoverageLimit``
/// of its area (a chart's labels, not a framed paragraph). A figure's area then takes in the
/// labels beside it: words within ``labelReach`` of it that are numbers or at most
/// ``labelLength`` characters long (ticks such as `0`, `2025`, `Q3`, `Jan`, `50%`; a caption's
/// words are longer). Figures that overlap are one. A page that needs more than
/// ``comparisonLimit`` comparisons of boxes to tell (a pattern of thousands of shapes) has
/// none.
struct DrawnFigures {
    /// How far apart, in points, two shapes may be and still touch.
    static let gap = 3.0
    /// The fewest rectangles that make a figure of rectangles alone.
    static let leastRectangles = 3
    /// The largest part of a figure's area the words inside it may cover.
    static let wordCoverageLimit = 0.2
    /// How many steps a figure's area takes in rules that touch it, then rules that touch those.
    static let ruleSteps = 3
    /// How far from a figure, in points, a label beside it may be.
    static let labelReach = 8.0
    /// The most characters a label of letters has.
    static let labelLength = 4
    /// The most comparisons of two boxes (shapes, rules, words) made for one page.
    static let comparisonLimit = 4_000_000

    /// The areas of the figures `drawing` (one page's) draws on a page of size `page` whose
    /// words are `words`, in the order of their first shape; none past `comparisonLimit`
    /// comparisons.
    static func areas(of drawing: PageDrawing, words allWords: [TextWord], page: PageSize, comparisonLimit: Int = Self.comparisonLimit) -> [PageRect] {
        var budget = comparisonLimit
        /// Counts `count` comparisons; false once they are more than the budget.
        func spend(_ count: Int) -> Bool {
            budget -= count
            return budget >= 0
        }
        let words = allWords.map(\.bounds)
        let half = 0.5 * page.width * page.height
        var shapes: [PageShape] = []
        for shape in drawing.shapes where shape.bounds.size.width * shape.bounds.size.height < half {
            guard !shape.isRectangle || spend(words.count) else { return [] }
            if !shape.isRectangle || !words.contains(where: { shape.bounds.contains(middleOf: $0) }) { shapes.append(shape) }
        }
        guard !shapes.isEmpty else { return [] }
        // Shapes sorted by their left edge: each is compared with those that begin before it ends.
        let order = shapes.indices.sorted { shapes[$0].bounds.minX < shapes[$1].bounds.minX }
        var sets = DisjointSets(count: shapes.count)
        for (position, i) in order.enumerated() {
            let grown = shapes[i].bounds.grown(by: gap)
            for j in order[(position + 1)...] {
                guard shapes[j].bounds.minX <= grown.maxX else { break }
                guard spend(1) else { return [] }
                if grown.overlaps(shapes[j].bounds) { sets.join(i, j) }
            }
        }
        // The shapes a rule touches are one group.
        for rule in drawing.rules {
            guard spend(shapes.count) else { return [] }
            let grown = rule.bounds.grown(by: gap)
            let touching = shapes.indices.filter { grown.overlaps(shapes[$0].bounds) }
            for other in touching.dropFirst() { sets.join(touching[0], other) }
        }
        var groups: [Int: (bounds: PageRect, rectangles: Int, others: Int)] = [:]
        var firsts: [Int] = []
        for (index, shape) in shapes.enumerated() {
            let root = sets.root(index)
            if groups[root] == nil { firsts.append(root) }
            var group = groups[root] ?? (shape.bounds, 0, 0)
            group.bounds = group.bounds.union(shape.bounds)
            if shape.isRectangle { group.rectangles += 1 } else { group.others += 1 }
            groups[root] = group
        }
        var areas: [PageRect] = []
        for root in firsts {
            let group = groups[root]!
            guard group.others > 0 || group.rectangles >= leastRectangles else { continue }
            var area = group.bounds
            // Rules touching it (an axis), then rules touching those (the other axis), and so
            // on for ``ruleSteps``; a rule that would make it half the page (a frame) is left out.
            for _ in 0..<ruleSteps {
                guard spend(drawing.rules.count) else { return [] }
                let grown = area.grown(by: gap)
                for rule in drawing.rules where grown.overlaps(rule.bounds) {
                    let larger = area.union(rule.bounds)
                    if larger.size.width * larger.size.height < half { area = larger }
                }
            }
            guard area.size.width >= Document.minimumFigureSide, area.size.height >= Document.minimumFigureSide,
                area.size.width * area.size.height < half
            else { continue }
            guard spend(2 * words.count) else { return [] }
            let covered = words.filter { area.contains(middleOf: $0) }.reduce(0) { $0 + $1.size.width * $1.size.height }
            guard covered <= wordCoverageLimit * area.size.width * area.size.height else { continue }
            let reach = area.grown(by: labelReach)
            for word in allWords where isLabel(word.text) && reach.overlaps(word.bounds) { area = area.union(word.bounds) }
            areas.append(area)
        }
        return merged(areas)
    }

    /// Whether `text` could be a chart's label: a number (digits with signs, separators, a
    /// unit's percent), or at most ``labelLength`` characters.
    private static func isLabel(_ text: String) -> Bool {
        let trimmed = text.filter { !$0.isWhitespace }
        guard !trimmed.isEmpty else { return false }
        return trimmed.count <= labelLength || trimmed.allSatisfy { $0.isNumber || "+-−.,%$€£".contains($0) }
    }

    /// `areas` with those that overlap made one, in the order of the first of each.
    private static func merged(_ areas: [PageRect]) -> [PageRect] {
        var out: [PageRect] = []
        for area in areas {
            var area = area
            while let index = out.firstIndex(where: { $0.overlaps(area) }) { area = area.union(out.remove(at: index)) }
            out.append(area)
        }
        return out
    }
}

extension PageRect {
    /// This rectangle grown by `amount` on every side.
    func grown(by amount: Double) -> PageRect {
        PageRect(x: minX - amount, y: minY - amount, width: size.width + 2 * amount, height: size.height + 2 * amount)
    }

    /// Whether the two rectangles share a point (edges included).
    func overlaps(_ other: PageRect) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    /// Whether the middle of `other` lies inside this rectangle.
    func contains(middleOf other: PageRect) -> Bool {
        let (x, y) = ((other.minX + other.maxX) / 2, (other.minY + other.maxY) / 2)
        return minX <= x && x <= maxX && minY <= y && y <= maxY
    }
}
