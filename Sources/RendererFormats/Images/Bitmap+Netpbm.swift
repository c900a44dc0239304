#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// Netpbm files of a bitmap (PPM, PGM and PAM), written directly.
extension Bitmap {
    /// The bitmap as a binary PPM (RGB) or PGM (gray) file. PNM has no alpha channel, so an
    /// RGBA bitmap throws `RendererError.Code.invalidArgument`: write it as PAM or PNG.
    public func pnmData() throws -> Data {
        netpbmData(header: try netpbmHeader(.pnm))
    }

    /// The bitmap as a PAM file (Netpbm's format with a tuple type: RGB, RGB_ALPHA or GRAYSCALE).
    public func pamData() -> Data {
        netpbmData(header: pamHeader)
    }

    /// Writes the bitmap as a PNM or PAM file at `path`, replacing it, straight from its bytes.
    func writeNetpbm(_ fileFormat: ImageFileFormat, to path: String) throws {
        let header = try netpbmHeader(fileFormat)
        let file = try FileOutput(path: path)
        try Array(header.utf8).withUnsafeBytes { try file.write($0) }
        try bytes.withUnsafeBytes { pixels in
            let rowBytes = width * format.bytesPerPixel
            if stride == rowBytes {
                try file.write(UnsafeRawBufferPointer(rebasing: pixels[0..<rowBytes * height]))
            } else {
                for y in 0..<height {
                    try file.write(UnsafeRawBufferPointer(rebasing: pixels[y * stride..<y * stride + rowBytes]))
                }
            }
        }
        try file.close()
    }

    private func netpbmHeader(_ fileFormat: ImageFileFormat) throws -> String {
        switch (fileFormat, format) {
        case (.pam, _): return pamHeader
        case (.pnm, .rgb): return "P6\n\(width) \(height)\n255\n"
        case (.pnm, .gray): return "P5\n\(width) \(height)\n255\n"
        case (.pnm, .rgba):
            throw RendererError(.invalidArgument, "PNM cannot hold an alpha channel; write RGBA bitmaps as PAM or PNG")
        case (.png, _), (.jpeg, _):
            preconditionFailure("\(fileFormat) is not a Netpbm format")
        }
    }

    private var pamHeader: String {
        let tupleType: String
        switch format {
        case .rgb: tupleType = "RGB"
        case .rgba: tupleType = "RGB_ALPHA"
        case .gray: tupleType = "GRAYSCALE"
        }
        return "P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH \(format.bytesPerPixel)\nMAXVAL 255\nTUPLTYPE \(tupleType)\nENDHDR\n"
    }

    private func netpbmData(header: String) -> Data {
        let rowBytes = width * format.bytesPerPixel
        var data = Data(capacity: header.utf8.count + rowBytes * height)
        data.append(contentsOf: Array(header.utf8))
        bytes.withUnsafeBytes { pixels in
            if stride == rowBytes {
                data.append(contentsOf: UnsafeRawBufferPointer(rebasing: pixels[0..<rowBytes * height]))
            } else {
                for y in 0..<height { data.append(contentsOf: UnsafeRawBufferPointer(rebasing: pixels[y * stride..<y * stride + rowBytes])) }
            }
        }
        return data
    }
}
