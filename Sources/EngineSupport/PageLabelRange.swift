/// One entry of a PDF's `/PageLabels` number tree (ISO 32000-1, 12.4.2): from `firstPage`
/// on, pages are labelled `prefix` followed by a number in `style`, counting from
/// `firstNumber`. For backends whose engine reads the tree but does not format labels.
package struct PageLabelRange: Hashable, Sendable {
    package enum Style: Hashable, Sendable {
        case decimal, upperRoman, lowerRoman, upperLetters, lowerLetters

        /// The style for a `/S` name (`D`, `R`, `r`, `A`, `a`); `nil` for none or another.
        package init?(pdfName: String) {
            switch pdfName {
            case "D": self = .decimal
            case "R": self = .upperRoman
            case "r": self = .lowerRoman
            case "A": self = .upperLetters
            case "a": self = .lowerLetters
            default: return nil
            }
        }
    }

    package var firstPage: Int
    /// `nil`: the label is the prefix alone.
    package var style: Style?
    package var prefix: String
    package var firstNumber: Int

    package init(firstPage: Int, style: Style?, prefix: String, firstNumber: Int) {
        self.firstPage = firstPage
        self.style = style
        self.prefix = prefix
        self.firstNumber = firstNumber
    }

    /// The label of page `index`: from the last range starting at or before it, or the
    /// 1-based page number when no range covers it.
    package static func label(forPage index: Int, in ranges: [PageLabelRange]) -> String {
        guard let range = ranges.filter({ $0.firstPage <= index }).max(by: { $0.firstPage < $1.firstPage }) else {
            return String(index + 1)
        }
        return range.prefix + range.number(index - range.firstPage + range.firstNumber)
    }

    /// Roman numerals and letters are only used up to 10,000; larger numbers (which only a
    /// hostile file asks for, and whose letters would run to millions) are written in digits.
    private func number(_ n: Int) -> String {
        guard let style else { return "" }
        let numeral = n >= 1 && n <= 10_000
        switch style {
        case .decimal: return String(n)
        case .upperRoman: return numeral ? Self.roman(n) : String(n)
        case .lowerRoman: return numeral ? Self.roman(n).lowercased() : String(n)
        case .upperLetters: return numeral ? Self.letters(n) : String(n)
        case .lowerLetters: return numeral ? Self.letters(n).lowercased() : String(n)
        }
    }

    private static func roman(_ n: Int) -> String {
        let numerals: [(Int, String)] = [
            (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
            (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
        ]
        var rest = n
        var text = ""
        for (value, symbol) in numerals {
            while rest >= value {
                text += symbol
                rest -= value
            }
        }
        return text
    }

    /// A to Z for 1 to 26, AA to ZZ for 27 to 52, AAA to ZZZ next, and so on.
    private static func letters(_ n: Int) -> String {
        let letter = Character(UnicodeScalar(UInt8(ascii: "A") + UInt8((n - 1) % 26)))
        return String(repeating: letter, count: (n - 1) / 26 + 1)
    }
}
