import CImageFiles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// JPEG files of a bitmap, written by libjpeg.
extension Bitmap {
    /// The quality JPEG files are written at unless told otherwise: libjpeg's default, the
    /// one `pdftoppm -jpeg` writes.
    public static let defaultJPEGQuality = 75

    /// The bitmap as a baseline JPEG file (JFIF) at `quality`, 1 to 100 on libjpeg's scale:
    /// gray bitmaps as gray JPEGs, RGB as colour. JPEG has no alpha channel, so an RGBA
    /// bitmap throws `RendererError.Code.invalidArgument`, as does a quality
    /// out of range.
    public func jpegData(quality: Int = Bitmap.defaultJPEGQuality) throws -> Data {
        guard format != .rgba else {
            throw RendererError(.invalidArgument, "JPEG cannot hold an alpha channel; write RGBA bitmaps as PAM or PNG")
        }
        guard (1...100).contains(quality) else {
            throw RendererError(.invalidArgument, "JPEG quality must be 1 to 100, not \(quality)")
        }
        var length = 0
        var message = [CChar](repeating: 0, count: 200)
        let encoded = bytes.withUnsafeBytes { pixels in
            cjpeg_encode(
                pixels.bindMemory(to: UInt8.self).baseAddress, Int32(width), Int32(height), stride, Int32(format.bytesPerPixel),
                Int32(quality), &length, &message)
        }
        guard let encoded else {
            throw RendererError(.invalidArgument, "cannot encode a \(width)x\(height) JPEG: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        return Data(bytesNoCopy: encoded, count: length, deallocator: .free)
    }
}
