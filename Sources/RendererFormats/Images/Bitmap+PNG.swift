import CFastPNG
import CImageFiles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

#if canImport(Glibc)
import Glibc
#endif

/// PNG files of a bitmap, written by the provider's encoder.
extension Bitmap {
    /// The bitmap as a PNG file made by the provider's encoder with `encoding`'s level,
    /// filter and channels. Throws `invalidArgument` for a level out of
    /// ``PNGEncoding/levels`` and `engineFailure` when memory runs out.
    public func pngData(_ encoding: PNGEncoding = PNGEncoding()) throws -> Data {
        try withPNG(encoding) { Data($0) }
    }

    /// The bitmap as a PNG file made by the provider's encoder with `encoding`'s settings,
    /// handed to `body` while it lives (`body` must not encode another PNG), without a copy.
    /// Throws as ``pngData(_:)`` does.
    func withPNG<T>(_ encoding: PNGEncoding, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        guard PNGEncoding.levels.contains(encoding.level) else {
            throw RendererError(.invalidArgument, "PNG level \(encoding.level) is not one of \(PNGEncoding.levels.lowerBound)-\(PNGEncoding.levels.upperBound)")
        }
        var length = 0
        var message = [CChar](repeating: 0, count: 128)
        let png = bytes.withUnsafeBufferPointer { samples in
            fastpng_encode(
                samples.baseAddress, Int32(width), Int32(height), stride, Int32(format.bytesPerPixel),
                encoding.reducesChannels ? 1 : 0, Int32(encoding.level),
                fastpng_filter(UInt32(encoding.filter.number)), &length, &message)
        }
        guard let png else {
            throw RendererError(.engineFailure, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        // The file lives in this thread's encoder memory until the thread's next encoding.
        return try body(UnsafeRawBufferPointer(start: png, count: length))
    }
}

extension PNGEncoding.Filter {
    /// The filter's number in the C encoder (the PNG filter type; 5 for adaptive).
    fileprivate var number: Int {
        switch self {
        case .none: 0
        case .sub: 1
        case .up: 2
        case .average: 3
        case .paeth: 4
        case .adaptive: 5
        case .noneOrUp: 6
        }
    }
}

/// PNG files read back into bitmaps, by libpng.
extension Bitmap {
    /// The pixels of a PNG file of any colour type and depth, as 8-bit samples: an RGB
    /// bitmap when every pixel is opaque, an RGBA one (straight alpha) otherwise. Throws
    /// `unsupportedFormat` for bytes that are not a PNG file, `damaged` for a file libpng
    /// cannot read, and `limitExceeded` for an image of more than `maximumPixelCount` pixels
    /// (checked before its pixels are decoded).
    public init(pngData data: Data, maximumPixelCount: Int = RenderOptions.defaultMaximumPixelCount) throws {
        guard data.starts(with: PNGText.signature) else { throw RendererError(.unsupportedFormat, "these bytes are not a PNG file") }
        var (width, height, tooLarge): (Int32, Int32, Int32) = (0, 0, 0)
        var message = [CChar](repeating: 0, count: 200)
        let pixels = data.withUnsafeBytes { bytes in
            cimage_decode_png(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32.max, maximumPixelCount, &width, &height, &tooLarge, &message)
        }
        guard let pixels else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw RendererError(tooLarge != 0 ? .limitExceeded : .damaged, "the PNG file cannot be read: \(reason)")
        }
        defer { free(pixels) }
        let rgba = UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4)
        if Swift.stride(from: 3, to: rgba.count, by: 4).allSatisfy({ rgba[$0] == 255 }) {
            var rgb = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
            for pixel in 0..<(Int(width) * Int(height)) {
                rgb[pixel * 3] = rgba[pixel * 4]
                rgb[pixel * 3 + 1] = rgba[pixel * 4 + 1]
                rgb[pixel * 3 + 2] = rgba[pixel * 4 + 2]
            }
            self.init(width: Int(width), height: Int(height), stride: Int(width) * 3, format: .rgb, bytes: rgb)
        } else {
            self.init(width: Int(width), height: Int(height), stride: Int(width) * 4, format: .rgba, bytes: Array(rgba))
        }
    }
}
