/// PDF text strings (ISO 32000-1, 7.9.2.2) as form data files hold them: PDFDocEncoding, or
/// UTF-16BE (or UTF-8, PDF 2.0) behind a byte order mark; and PDF name tokens, which the
/// engines' object edits (EngineSupport's `PDFObject`) write too.
package enum PDFTextString {
    /// The text of a string's bytes.
    package static func decode(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFE, 0xFF]) {
            let units = stride(from: 2, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: bytes.dropFirst(3), as: UTF8.self) }
        return String(String.UnicodeScalarView(bytes.map(scalar(ofDocEncoded:))))
    }

    /// `text` as a PDF string token: a literal string when it is printable ASCII (with tabs
    /// and line breaks), else a hexadecimal string of UTF-16BE behind its byte order mark.
    package static func token(for text: String) -> String {
        let scalars = text.unicodeScalars
        if scalars.allSatisfy({ (0x20...0x7E).contains($0.value) || $0 == "\n" || $0 == "\r" || $0 == "\t" }) {
            var literal = "("
            for scalar in scalars {
                switch scalar {
                case "(", ")", "\\": literal += "\\\(scalar)"
                case "\n": literal += "\\n"
                case "\r": literal += "\\r"
                case "\t": literal += "\\t"
                default: literal.unicodeScalars.append(scalar)
                }
            }
            return literal + ")"
        }
        let units = [0xFEFF] + Array(text.utf16)
        return "<" + units.map { hex($0, digits: 4) }.joined() + ">"
    }

    /// `name` as a PDF name token: bytes outside `!`…`~`, `#` and the delimiters as `#xx`.
    package static func nameToken(for name: String) -> String {
        "/" + name.utf8.map { byte in
            let plain = (0x21...0x7E).contains(byte) && !"#()<>[]{}/%".utf8.contains(byte)
            return plain ? String(UnicodeScalar(byte)) : "#" + hex(UInt16(byte), digits: 2)
        }.joined()
    }

    private static func hex(_ value: UInt16, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The PDFDocEncoding bytes of `text`; nil when it has a character the encoding lacks.
    package static func docEncodedBytes(of text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let special = docEncodingBytes[scalar.value] {
                bytes.append(special)
            } else if scalar.value < 0x100, docEncodingSpecials[UInt8(scalar.value)] == nil, scalar.value != 0xAD {
                bytes.append(UInt8(scalar.value))
            } else {
                return nil
            }
        }
        return bytes
    }

    private static let docEncodingBytes = Dictionary(uniqueKeysWithValues: docEncodingSpecials.map { ($0.value, $0.key) })

    /// The character of a PDFDocEncoding byte (ISO 32000-1, annex D): Latin-1, except the
    /// accents at 0x18–0x1F and the punctuation and letters at 0x80–0xA0.
    private static func scalar(ofDocEncoded byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(docEncodingSpecials[byte] ?? UInt32(byte)) ?? "\u{FFFD}"
    }

    private static let docEncodingSpecials: [UInt8: UInt32] = [
        0x18: 0x02D8, 0x19: 0x02C7, 0x1A: 0x02C6, 0x1B: 0x02D9, 0x1C: 0x02DD, 0x1D: 0x02DB, 0x1E: 0x02DA, 0x1F: 0x02DC,
        0x80: 0x2022, 0x81: 0x2020, 0x82: 0x2021, 0x83: 0x2026, 0x84: 0x2014, 0x85: 0x2013, 0x86: 0x0192, 0x87: 0x2044,
        0x88: 0x2039, 0x89: 0x203A, 0x8A: 0x2212, 0x8B: 0x2030, 0x8C: 0x201E, 0x8D: 0x201C, 0x8E: 0x201D, 0x8F: 0x2018,
        0x90: 0x2019, 0x91: 0x201A, 0x92: 0x2122, 0x93: 0xFB01, 0x94: 0xFB02, 0x95: 0x0141, 0x96: 0x0152, 0x97: 0x0160,
        0x98: 0x0178, 0x99: 0x017D, 0x9A: 0x0131, 0x9B: 0x0142, 0x9C: 0x0153, 0x9D: 0x0161, 0x9E: 0x017E, 0xA0: 0x20AC,
    ]
}
