/// The lines one text removes and adds against another, as a unified diff's body shows them:
/// `-` before a line only the first has, `+` before one only the second has.
public struct LineDiff: Hashable, Sendable {
    /// The changed lines, in order, each with its `-` or `+`.
    public var changes: [String]

    /// The lines that differ between `old` and `new` (split at newlines), from the longest
    /// common subsequence of their lines after their common first and last lines. When what
    /// is left of both is longer than 4,000 lines each, the rest is given as removed and added whole.
    public init(from old: String, to new: String) {
        var a = old.split(separator: "\n", omittingEmptySubsequences: false)[...]
        var b = new.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let x = a.first, let y = b.first, x == y { (a, b) = (a.dropFirst(), b.dropFirst()) }
        while let x = a.last, let y = b.last, x == y { (a, b) = (a.dropLast(), b.dropLast()) }
        let (first, second) = (Array(a), Array(b))
        guard first.count * second.count <= 16_000_000 else {
            changes = first.map { "-" + $0 } + second.map { "+" + $0 }
            return
        }
        changes = SequenceAlignment.align(first.count, second.count) { first[$0] == second[$1] }.compactMap { step in
            switch step {
            case .both: nil
            case .onlyFirst(let i): "-" + first[i]
            case .onlySecond(let j): "+" + second[j]
            }
        }
    }

    /// Whether the texts' lines are the same.
    public var isEmpty: Bool { changes.isEmpty }

    /// The first `limit` changes, one a line, and how many more there are.
    public func summary(limit: Int = 12) -> String {
        let shown = changes.prefix(limit).joined(separator: "\n")
        return changes.count > limit ? shown + "\n(\(changes.count - limit) more changed lines)" : shown
    }
}
