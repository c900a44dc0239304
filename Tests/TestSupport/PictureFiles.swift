import Foundation

/// Picture files made by the tests, with the properties their names state.
public enum PictureFiles {
    /// A PNG's signature and header chunk alone, claiming `width` x `height` RGB pixels.
    public static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var header = Data("IHDR".utf8)
        for value in [width, height] { withUnsafeBytes(of: value.bigEndian) { header.append(contentsOf: $0) } }
        header.append(contentsOf: [8, 2, 0, 0, 0])
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        withUnsafeBytes(of: UInt32(13).bigEndian) { png.append(contentsOf: $0) }
        png.append(header)
        withUnsafeBytes(of: crc32(header).bigEndian) { png.append(contentsOf: $0) }
        return png
    }

    /// PNG's CRC-32 of `bytes`.
    public static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
