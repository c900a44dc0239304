import Foundation

extension Bitmap {
    /// The bitmap as a binary PPM (RGB) or PGM (gray) file. PNM has no alpha channel, so an
    /// RGBA bitmap throws ``RendererError/Code-swift.enum/invalidArgument``: write it as PAM or PNG.
    public func pnmData() throws -> Data {
        let magic: String
        switch format {
        case .rgb: magic = "P6"
        case .gray: magic = "P5"
        case .rgba:
            throw RendererError(.invalidArgument, "PNM cannot hold an alpha channel; write RGBA bitmaps as PAM or PNG")
        }
        return netpbm(header: "\(magic)\n\(width) \(height)\n255\n")
    }

    /// The bitmap as a PAM file (Netpbm's format with a tuple type: RGB, RGB_ALPHA or GRAYSCALE).
    public func pamData() -> Data {
        let tupleType: String
        switch format {
        case .rgb: tupleType = "RGB"
        case .rgba: tupleType = "RGB_ALPHA"
        case .gray: tupleType = "GRAYSCALE"
        }
        let header = "P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH \(format.bytesPerPixel)\nMAXVAL 255\nTUPLTYPE \(tupleType)\nENDHDR\n"
        return netpbm(header: header)
    }

    private func netpbm(header: String) -> Data {
        let rowBytes = width * format.bytesPerPixel
        var data = Data(capacity: header.utf8.count + rowBytes * height)
        data.append(contentsOf: Array(header.utf8))
        if stride == rowBytes {
            data.append(contentsOf: bytes[0..<rowBytes * height])
        } else {
            for y in 0..<height { data.append(contentsOf: row(y)) }
        }
        return data
    }
}
