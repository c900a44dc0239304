import Foundation
import RendererProvider

/// A signature's `/ByteRange` checked against the file: two ranges, the first from byte 0,
/// the second from just after the signature's hexadecimal string (`<…>`, the only bytes
/// left out) to the end of a revision (a `%%EOF` line) or of the file.
struct SignedRanges {
    /// Why the ranges are refused, in words.
    struct Refusal: Error {
        var message: String
    }

    /// The signature's bytes, decoded from the hexadecimal string between the ranges.
    let signature: Data
    /// Where the signed bytes end: the length of the revision signed.
    let end: Int
    /// How many bytes are signed.
    let signedByteCount: Int

    init(_ ranges: [SignatureField.ByteRange], in data: Data) throws {
        guard ranges.count == 2 else { throw Refusal(message: "the byte range has \(ranges.count) ranges, not two") }
        let (first, second) = (ranges[0], ranges[1])
        guard first.offset == 0, first.length > 0, second.length >= 0, second.offset > first.length,
            second.offset <= data.count, second.length <= data.count - second.offset
        else { throw Refusal(message: "the byte ranges do not run from the start of the file around one gap within it") }
        let base = data.startIndex
        let gap = data[(base + first.length)..<(base + second.offset)]
        guard gap.first == UInt8(ascii: "<"), gap.last == UInt8(ascii: ">"), let signature = Self.hex(gap.dropFirst().dropLast()) else {
            throw Refusal(message: "the bytes the ranges leave out are not the signature's hexadecimal string")
        }
        end = second.offset + second.length
        guard end == data.count || Self.endsRevision(data[base..<(base + end)]) else {
            throw Refusal(message: "the signed bytes end at \(end), inside a revision rather than at its end")
        }
        self.signature = signature
        signedByteCount = first.length + second.length
    }

    /// The bytes of hexadecimal digits (whitespace skipped); nil for anything else.
    private static func hex(_ text: Data) -> Data? {
        var bytes = Data(capacity: text.count / 2)
        var high: UInt8?
        for character in text {
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
            case 0x20, 0x0A, 0x0D, 0x09, 0x0C: continue
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        if let last = high { bytes.append(last << 4) }
        return bytes
    }

    /// Whether `bytes` end with `%%EOF` and at most an end of line.
    private static func endsRevision(_ bytes: Data) -> Bool {
        var trimmed = bytes[...]
        while let last = trimmed.last, last == 0x0A || last == 0x0D || last == 0x20 { trimmed = trimmed.dropLast() }
        return trimmed.suffix(5).elementsEqual("%%EOF".utf8)
    }
}
