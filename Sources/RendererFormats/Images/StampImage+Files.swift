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

/// Reading a stamp's picture from a JPEG or PNG file, through libjpeg and libpng.
extension StampImage {
    /// The image in a JPEG or PNG file's bytes. Throws `unsupportedFormat` for other bytes,
    /// `damaged` for a file its decoder cannot read, and `limitExceeded` for a file or an
    /// image larger than the limits above, or than `maximumPixelCount` pixels when that is
    /// lower (a server taking pictures from strangers may keep their memory smaller), checked
    /// before the pixels are decoded.
    public init(data: Data, maximumPixelCount: Int = StampImage.maximumPixelCount) throws {
        guard data.count <= Self.maximumFileSize else {
            throw RendererError(.limitExceeded, "an image file of \(data.count) bytes is more than the \(Self.maximumFileSize) bytes taken")
        }
        let decode: (
            UnsafePointer<UInt8>?, Int, Int32, Int, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
            UnsafeMutablePointer<CChar>?
        ) -> UnsafeMutablePointer<UInt8>?
        if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            decode = cimage_decode_jpeg
        } else if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            decode = cimage_decode_png
        } else {
            throw RendererError(.unsupportedFormat, "a stamp's image is a JPEG or PNG file, and these bytes are neither")
        }
        var (width, height, tooLarge): (Int32, Int32, Int32) = (0, 0, 0)
        var message = [CChar](repeating: 0, count: 200)
        let pixels = data.withUnsafeBytes { bytes in
            decode(
                bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32(Self.maximumSide), min(maximumPixelCount, Self.maximumPixelCount),
                &width, &height, &tooLarge, &message)
        }
        guard let pixels else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw RendererError(tooLarge != 0 ? .limitExceeded : .damaged, "the image cannot be read: \(reason)")
        }
        defer { free(pixels) }
        self.init(rgba: UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4), width: Int(width), height: Int(height))
    }

    /// The image in the JPEG or PNG file the file URL `url` names, as
    /// ``init(contentsOfFile:)`` reads it; `invalidArgument` for a URL of another scheme.
    public init(contentsOf url: URL) throws {
        try self.init(contentsOfFile: url.localFilePath())
    }

    /// The image in the JPEG or PNG file at `path`; throws as ``init(data:maximumPixelCount:)`` does, and
    /// `fileNotFound` or `ioFailure` when the file cannot be read.
    public init(contentsOfFile path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { throw RendererError(.fileNotFound, "there is no image file \(path)") }
        guard status.st_size <= Self.maximumFileSize else {
            throw RendererError(.limitExceeded, "the image file \(path) is more than the \(Self.maximumFileSize) bytes taken")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RendererError(.ioFailure, "the image file \(path) cannot be read")
        }
        try self.init(data: data)
    }
}
