import CFastPNG
import FoundationEssentials
import RendererEngine

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
