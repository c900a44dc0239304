import RendererProvider

/// How far two texts of the same page agree, word by word.
public enum TextAgreement {
    /// The share of words the texts have in common: words (runs of letters and digits, so
    /// whitespace and where an engine puts a space before punctuation do not count) matched
    /// one to one regardless of order (engines order columns differently), divided by the
    /// larger word count. 1 for two texts without words. Ligatures count as the letters
    /// they join and accents compare however they are composed, as search compares them,
    /// since one engine spells "ﬀ" out and another keeps it.
    public static func words(_ a: String, _ b: String) -> Double {
        func counts(_ text: String) -> [Substring: Int] {
            TextFolding.fold(text).split { !($0.isLetter || $0.isNumber) }.reduce(into: [:]) { $0[$1, default: 0] += 1 }
        }
        let countsA = counts(a), countsB = counts(b)
        let totalA = countsA.values.reduce(0, +), totalB = countsB.values.reduce(0, +)
        guard max(totalA, totalB) > 0 else { return 1 }
        let shared = countsA.reduce(0) { $0 + min($1.value, countsB[$1.key] ?? 0) }
        return Double(shared) / Double(max(totalA, totalB))
    }
}
