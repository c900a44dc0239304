@_spi(_Unicode) import Swift

/// How text is compared when searched and when engines' texts are compared: the same on
/// every engine, whether it spells out ligatures or keeps them, and composes accents or not.
package enum TextFolding {
    /// `text` with the Latin ligatures (U+FB00 to U+FB06: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) spelt out, in
    /// canonical decomposition (NFD), so that a precomposed "é" and an "e" followed by a
    /// combining accent are the same; with `ignoringAccents`, without the combining marks
    /// (nonspacing marks), so that "résumé" reads "resume". Letter case is kept.
    ///
    /// The decomposition is the standard library's own (`String._nfd`, its `_Unicode` SPI,
    /// which its `Regex` also uses): Foundation's `decomposedStringWithCanonicalMapping`
    /// would link ICU into `hostapp`.
    package static func fold(_ text: String, ignoringAccents: Bool = false) -> String {
        // Search folds every character of every page: ASCII, most of them, is its own folding.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var spelt = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let letters = ligatures[scalar.value] {
                spelt.append(contentsOf: letters.unicodeScalars)
            } else {
                spelt.append(scalar)
            }
        }
        var folded = String.UnicodeScalarView()
        for scalar in String(spelt)._nfd where !(ignoringAccents && scalar.properties.generalCategory == .nonspacingMark) {
            folded.append(scalar)
        }
        return String(folded)
    }

    /// The Latin ligatures' compatibility decompositions (UnicodeData.txt), with ﬅ's long s
    /// taken on to its own compatibility form, s.
    private static let ligatures: [UInt32: String] = [
        0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl", 0xFB05: "st", 0xFB06: "st",
    ]
}
