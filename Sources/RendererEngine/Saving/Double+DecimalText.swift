extension Double {
    /// The number with at most `places` decimals and no trailing zeros or point, as PDF,
    /// XFDF and pdfinfo write numbers: `12.5`, `3`, never `-0`.
    package func decimalText(places: Int) -> String {
        var text = String(printf: "%.*f", Int32(places), self)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// The number as messages show it: at most three decimals, the whole part in groups of
    /// three digits between commas (`268,435,456`, `72.5`), as Foundation's `formatted()`
    /// writes it in English.
    package var groupedText: String {
        let text = decimalText(places: 3)
        let negative = text.hasPrefix("-")
        let unsigned = negative ? text.dropFirst() : Substring(text)
        let whole = unsigned.prefix { $0 != "." }
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (negative ? "-" : "") + grouped + unsigned.dropFirst(whole.count)
    }
}
