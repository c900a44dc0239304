#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// The text with `&`, `<`, `>`, `"` and `'` written as character references, and the
    /// control characters XML 1.0 forbids (all below U+0020 but tab, line feed and carriage
    /// return, which a PDF's text may hold) as U+FFFD.
    package var escapedForMarkup: String {
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

    /// `format` filled in with `arguments` by C's `vsnprintf`, for the fixed-width numbers
    /// PDF syntax and digests are written in (`%010d`, `%02x`, `%.3f`). It stands for
    /// Foundation's `String(printf:)`, whose module would link ICU into `hostapp`; like it
    /// without a locale, a decimal point is always `.` (no module calls `setlocale`). The
    /// format is C's: an `Int` takes `l` (`%ld`), as it is 64 bits wide.
    package init(printf format: String, _ arguments: any CVarArg...) {
        let count = Int(withVaList(arguments) { vsnprintf(nil, 0, format, $0) })
        guard count > 0 else {
            self = ""
            return
        }
        self = String(unsafeUninitializedCapacity: count + 1) { buffer in
            _ = withVaList(arguments) { vsnprintf(buffer.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }, count + 1, format, $0) }
            return count
        }
    }

    /// The bytes as lower-case hexadecimal, two digits each: how digests are shown.
    package init<Bytes: Sequence>(hexadecimal bytes: Bytes) where Bytes.Element == UInt8 {
        self = bytes.map { String(printf: "%02x", $0) }.joined()
    }
}

extension String {
    /// This text with spaces before it, to `width` characters (never cut).
    package func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }

    /// This text with spaces after it, to `width` characters (never cut).
    package func rightPadded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}

extension StringProtocol {
    /// The text without whitespace (line breaks included) at either end.
    package var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// The text without the spaces and tabs (Unicode's space separators) at either end, as
    /// Foundation's `trimmingCharacters(in: .whitespaces)` gives it.
    package var trimmingSpaces: String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
