import Foundation

/// How text is compared when searched and when engines' texts are compared: the same on
/// every engine, whether it spells out ligatures or keeps them, and composes accents or not.
package enum TextFolding {
    /// `text` with the Latin ligatures (U+FB00 to U+FB06: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) spelt out, in
    /// canonical decomposition (NFD), so that a precomposed "é" and an "e" followed by a
    /// combining accent are the same; with `ignoringAccents`, without the combining marks
    /// (nonspacing marks), so that "résumé" reads "resume". Letter case is kept.
    package static func fold(_ text: String, ignoringAccents: Bool = false) -> String {
        // Search folds every character of every page: ASCII, most of them, is its own folding.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0xFB00...0xFB06).contains(scalar.value) {
                // Their compatibility decompositions are the letters (ﬅ's long s becomes s).
                scalars.append(contentsOf: String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars)
            } else {
                scalars.append(scalar)
            }
        }
        let decomposed = String(scalars).decomposedStringWithCanonicalMapping
        guard ignoringAccents else { return decomposed }
        return String(String.UnicodeScalarView(decomposed.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark }))
    }
}
