#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An image of a document as a file of its own (``Document/imageFile(_:)``).
public struct ImageFile: Hashable, Sendable {
    /// The file's format.
    public enum Format: String, Hashable, Sendable {
        /// A JPEG file: the PDF's stream, byte for byte.
        case jpeg
        /// A JPEG 2000 file: the PDF's stream, byte for byte.
        case jpeg2000
        /// A PNG file of the image's samples, 8-bit gray or RGB.
        case png

        /// The format's media type: `image/jpeg`, `image/jp2`, `image/png`.
        public var mediaType: String {
            switch self {
            case .jpeg: "image/jpeg"
            case .jpeg2000: "image/jp2"
            case .png: "image/png"
            }
        }

        /// The file name extension of the format: `jpg`, `jp2`, `png`.
        public var fileExtension: String {
            switch self {
            case .jpeg: "jpg"
            case .jpeg2000: "jp2"
            case .png: "png"
            }
        }
    }

    /// The file's format.
    public var format: Format
    /// The file's bytes.
    public var data: Data
}

extension Document {
    /// The images the pages draw, page after page, in the order drawn, with the masks they are
    /// drawn through: what `pdfimages -list` lists (`DocumentImage`). Read over the PDF's
    /// objects, so every engine that reads them (MuPDF, Poppler) gives the same list;
    /// `unsupported` for Ghostscript and for formats other than PDF.
    public func images() throws -> [DocumentImage] {
        try withEngine(as: ContentReading.self, needing: nil) { document, _ in try document.images() }
    }

    /// `image` (as ``images()`` lists it) as a file of its own: a JPEG or JPEG 2000 image as
    /// the PDF stores it, byte for byte (a CMYK JPEG excepted), any other as a PNG file of its
    /// samples, made gray or RGB. Needs the PDF's permission to copy (as `pdfimages` does);
    /// throws `unsupported` for a colour space that cannot be made gray or RGB (Lab,
    /// DeviceN) and `damaged` for data that cannot be read.
    public func imageFile(_ image: DocumentImage) throws -> ImageFile {
        try require(.copy, toAllow: "copying its images")
        let contents = try withEngine(as: ContentReading.self, needing: nil) { document, _ in try document.imageContents(image) }
        switch contents.format {
        case .jpeg: return ImageFile(format: .jpeg, data: contents.data)
        case .jpeg2000: return ImageFile(format: .jpeg2000, data: contents.data)
        case .gray, .rgb:
            let format: PixelFormat = contents.format == .gray ? .gray : .rgb
            guard contents.width > 0, contents.height > 0, contents.data.count == contents.width * contents.height * format.bytesPerPixel else {
                throw RendererError(.damaged, "the engine gave an image's samples of the wrong size")
            }
            let bitmap = Bitmap(width: contents.width, height: contents.height, stride: contents.width * format.bytesPerPixel, format: format, bytes: [UInt8](contents.data))
            return ImageFile(format: .png, data: try bitmap.pngData())
        }
    }
}
