import RendererEngine

/// The image files a `Bitmap` can be written as.
public enum ImageFileFormat: String, Sendable, Codable, CaseIterable {
    /// PNG, written by the provider's encoder (``PNGEncoding``).
    case png
    /// Netpbm PPM (RGB) or PGM (gray); no alpha.
    case pnm
    /// Netpbm PAM, which also carries alpha.
    case pam
    /// Baseline JPEG (JFIF), gray or RGB, at `RenderOptions.jpegQuality`; no alpha.
    case jpeg

    /// The usual file name extension for a bitmap of `format` in this file format.
    public func fileExtension(for format: PixelFormat) -> String {
        switch self {
        case .png: "png"
        case .pam: "pam"
        case .pnm: format == .gray ? "pgm" : "ppm"
        case .jpeg: "jpg"
        }
    }
}
