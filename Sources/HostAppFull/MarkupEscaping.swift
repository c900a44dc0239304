/// Text put into HTML or XML, as content or a quoted attribute value.
extension String {
    /// The text with `&`, `<`, `>`, `"` and `'` written as character references, and the
    /// control characters XML 1.0 forbids (all below U+0020 but tab, line feed and carriage
    /// return, which a PDF's text may hold) as U+FFFD.
    var escapedForMarkup: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for character in self {
            if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1, scalar.value < 0x20, ![9, 10, 13].contains(scalar.value) {
                out += "\u{FFFD}"
                continue
            }
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
