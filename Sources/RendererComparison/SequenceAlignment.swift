/// The longest order-keeping matching of two sequences: which items of the first pair with
/// which of the second, and which stand alone. The diffs of lines and of pages both rest on it.
public enum SequenceAlignment {
    /// One step of an alignment, in order.
    public enum Step: Hashable, Sendable {
        /// Item `first` of the first sequence pairs with item `second` of the second.
        case both(first: Int, second: Int)
        /// Item of the first sequence with no partner (removed, from the first to the second).
        case onlyFirst(Int)
        /// Item of the second sequence with no partner (added).
        case onlySecond(Int)
    }

    /// The most pairs sequences of `firstCount` and `secondCount` items can make, keeping
    /// both orders, where item i of the first may pair with item j of the second only when
    /// `matches(i, j)`; where pairing an item or leaving it alone give as many pairs, it
    /// pairs. The steps cover every item of both, in order. Takes time and memory in
    /// proportion to the product of the counts.
    public static func align(_ firstCount: Int, _ secondCount: Int, matches: (Int, Int) -> Bool) -> [Step] {
        let (n, m) = (firstCount, secondCount)
        // lengths[i][j]: the longest matching of the suffixes from i and from j.
        var lengths = [[Int32]](repeating: [Int32](repeating: 0, count: m + 1), count: n + 1)
        var paired = [[Bool]](repeating: [Bool](repeating: false, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                let skip = max(lengths[i + 1][j], lengths[i][j + 1])
                if matches(i, j), lengths[i + 1][j + 1] + 1 >= skip {
                    lengths[i][j] = lengths[i + 1][j + 1] + 1
                    paired[i][j] = true
                } else {
                    lengths[i][j] = skip
                }
            }
        }
        var steps: [Step] = []
        var (i, j) = (0, 0)
        while i < n || j < m {
            if i < n, j < m, paired[i][j] {
                steps.append(.both(first: i, second: j))
                (i, j) = (i + 1, j + 1)
            } else if j == m || (i < n && lengths[i + 1][j] >= lengths[i][j + 1]) {
                steps.append(.onlyFirst(i))
                i += 1
            } else {
                steps.append(.onlySecond(j))
                j += 1
            }
        }
        return steps
    }
}
