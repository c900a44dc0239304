#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// A bitmap as an image file of any format the provider writes: the one place that picks the
/// encoder for a format.
extension Bitmap {
    /// The bitmap as an image file: PNG as `png` says, JPEG at `jpegQuality`, PNM or PAM
    /// directly.
    package func imageData(as format: ImageFileFormat, png: PNGEncoding, jpegQuality: Int) throws -> Data {
        switch format {
        case .jpeg: return try jpegData(quality: jpegQuality)
        case .pnm: return try pnmData()
        case .pam: return pamData()
        case .png: return try pngData(png)
        }
    }

    /// Writes the bitmap as an image file into the file at `path`, created or truncated (not
    /// atomically: the caller writes to a temporary file). PNG and Netpbm go from the
    /// bitmap's bytes to the file without a copy of the whole image.
    package func writeImage(as format: ImageFileFormat, to path: String, png: PNGEncoding, jpegQuality: Int) throws {
        switch format {
        case .pnm, .pam: try writeNetpbm(format, to: path)
        case .jpeg: try write(jpegData(quality: jpegQuality), to: path)
        case .png: try withPNG(png) { try write($0, to: path) }
        }
    }

    private func write(_ bytes: Data, to path: String) throws {
        try bytes.withUnsafeBytes { try write($0, to: path) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws {
        let file = try FileOutput(path: path)
        try file.write(bytes)
        try file.close()
    }
}
