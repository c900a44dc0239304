/// Text in WinAnsiEncoding, as a simple font of the standard 14 shows it.
package enum WinAnsiText {
    /// The bytes of `text`: printable ASCII and Latin-1 characters as they are, the
    /// characters WinAnsiEncoding puts at 0x80-0x9F (typographic quotes and dashes, the euro
    /// sign) at their codes, the Latin ligatures of U+FB00-FB06 as their letters, anything
    /// else `?`.
    package static func bytes(_ text: String) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar -> [UInt8] in
            let value = scalar.value
            if (0x20...0x7E).contains(value) || (0xA0...0xFF).contains(value) { return [UInt8(value)] }
            if let byte = upper[value] { return [byte] }
            if let letters = ligatures[value] { return Array(letters.utf8) }
            return [UInt8(ascii: "?")]
        }
    }

    /// The characters of WinAnsiEncoding's codes 0x80-0x9F.
    private static let upper: [UInt32: UInt8] = [
        0x20AC: 0x80, 0x201A: 0x82, 0x0192: 0x83, 0x201E: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87, 0x02C6: 0x88,
        0x2030: 0x89, 0x0160: 0x8A, 0x2039: 0x8B, 0x0152: 0x8C, 0x017D: 0x8E, 0x2018: 0x91, 0x2019: 0x92, 0x201C: 0x93,
        0x201D: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02DC: 0x98, 0x2122: 0x99, 0x0161: 0x9A, 0x203A: 0x9B,
        0x0153: 0x9C, 0x017E: 0x9E, 0x0178: 0x9F,
    ]

    /// The Latin ligatures, as the letters they join.
    private static let ligatures: [UInt32: String] = [
        0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl", 0xFB05: "st", 0xFB06: "st",
    ]
}
