import CFribidi

/// A line cut into runs of one direction by the Unicode bidirectional algorithm (FriBidi),
/// and the order they are seen in (rule L2: from the highest level down to the lowest odd
/// one, every stretch of runs at that level or above reversed).
struct BidiRuns {
    /// A stretch of characters at one embedding level.
    struct Run {
        /// The characters, by index in the line.
        var range: Range<Int>
        /// The run's embedding level; odd reads right to left.
        var level: Int
        var rightToLeft: Bool { level % 2 == 1 }
    }

    /// The runs in the order they are read.
    let logicalOrder: [Run]

    /// The runs of `characters` (Unicode scalar values).
    init(_ characters: [UInt32]) {
        let count = characters.count
        guard count > 0 else {
            logicalOrder = []
            return
        }
        var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: count)
        var brackets = [FriBidiBracketType](repeating: FriBidiBracketType(0), count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var direction = cfribidi_paragraph_auto
        fribidi_get_bidi_types(characters, FriBidiStrIndex(count), &types)
        fribidi_get_bracket_types(characters, FriBidiStrIndex(count), types, &brackets)
        if fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(count), &direction, &levels) == 0 {
            // FriBidi could not order it (out of memory): one run left to right.
            levels = [FriBidiLevel](repeating: 0, count: count)
        }
        var runs: [Run] = []
        var start = 0
        for index in 1...count where index == count || levels[index] != levels[start] {
            runs.append(Run(range: start..<index, level: Int(levels[start])))
            start = index
        }
        logicalOrder = runs
    }

    /// The runs in the order they are seen, left to right.
    var visualOrder: [Run] {
        var runs = logicalOrder
        guard let highest = runs.map(\.level).max(), let lowestOdd = runs.map(\.level).filter({ $0 % 2 == 1 }).min() else { return runs }
        for level in stride(from: highest, through: lowestOdd, by: -1) {
            var index = 0
            while index < runs.count {
                guard runs[index].level >= level else {
                    index += 1
                    continue
                }
                var end = index
                while end < runs.count, runs[end].level >= level { end += 1 }
                runs[index..<end].reverse()
                index = end
            }
        }
        return runs
    }

}
