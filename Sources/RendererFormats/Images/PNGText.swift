import CFastPNG
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// Text a PNG file carries beside its pixels: iTXt chunks (PNG specification, 11.3.4.5) of a
/// keyword and UTF-8 text, uncompressed. Decoders that do not know a keyword skip its chunk,
/// so the pixels read the same with or without it.
public enum PNGText {
    /// The PNG file's signature, the first 8 bytes of every PNG file.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `png` with an iTXt chunk of `keyword` holding `text` added just before its IEND chunk.
    /// Throws `invalidArgument` when `png` does not end as a PNG file ends or when `keyword`
    /// is not 1 to 79 printable ASCII characters (the specification's limit).
    public static func adding(_ text: String, keyword: String, to png: Data) throws -> Data {
        let name = Array(keyword.utf8)
        guard (1...79).contains(name.count), name.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw RendererError(.invalidArgument, "a PNG text keyword is 1 to 79 printable ASCII characters")
        }
        let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        guard png.starts(with: signature), png.count >= signature.count + iend.count, png.suffix(iend.count).elementsEqual(iend) else {
            throw RendererError(.invalidArgument, "these bytes are not a whole PNG file")
        }
        // keyword, NUL, compression flag 0, method 0, empty language tag and translated keyword.
        let body = name + [0, 0, 0, 0, 0] + Array(text.utf8)
        let typeAndBody = Array("iTXt".utf8) + body
        var chunk = bigEndian(UInt32(body.count)) + typeAndBody
        chunk += bigEndian(typeAndBody.withUnsafeBufferPointer { fastpng_crc32($0.baseAddress, $0.count) })
        var out = png.prefix(png.count - iend.count)
        out.append(contentsOf: chunk)
        out.append(contentsOf: iend)
        return Data(out)
    }

    /// The text of the first iTXt chunk of `keyword` that is not compressed, or of the first
    /// tEXt chunk of it (read as Latin-1); nil when the file has none. Throws `damaged` when
    /// the bytes are not a PNG file, a chunk runs past its end or the file ends before IEND.
    public static func text(forKeyword keyword: String, in png: Data) throws -> String? {
        let bytes = [UInt8](png)
        guard bytes.starts(with: signature) else { throw RendererError(.damaged, "these bytes are not a PNG file") }
        let name = Array(keyword.utf8)
        var offset = signature.count
        while true {
            guard offset + 12 <= bytes.count else { throw RendererError(.damaged, "the PNG file ends before its IEND chunk") }
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length <= bytes.count - start - 4 else { throw RendererError(.damaged, "a PNG chunk runs past the end of the file") }
            let data = bytes[start..<(start + length)]
            if type == "iTXt" || type == "tEXt", data.starts(with: name + [0]) {
                let rest = data.dropFirst(name.count + 1)
                if type == "tEXt" { return String(rest.map { Character(Unicode.Scalar($0)) }) }
                // compression flag, method, then the language tag and translated keyword, each NUL-ended.
                if rest.first == 0, rest.count >= 2 {
                    var fields = rest.dropFirst(2)
                    for _ in 0..<2 {
                        guard let end = fields.firstIndex(of: 0) else { throw RendererError(.damaged, "a PNG iTXt chunk is cut short") }
                        fields = fields[(end + 1)...]
                    }
                    return String(decoding: fields, as: UTF8.self)
                }
            }
            if type == "IEND" { return nil }
            offset = start + length + 4
        }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
