#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An image a page draws, as `pdfimages -list` lists it: one entry each time the page's
/// content draws it (in the forms it draws and its annotations' appearances too), and one
/// more for the mask or soft mask it is drawn through. Images a page's resources hold but
/// its content never draws are not listed, nor those inside tiling patterns and Type 3
/// glyphs (which `pdfimages` leaves out as well).
public struct DocumentImage: Hashable, Sendable, Codable {
    /// What the entry is.
    public enum Role: String, Hashable, Sendable, Codable {
        /// An image of colours.
        case image
        /// A stencil mask (`/ImageMask true`): paints the current colour where it is set.
        case stencil
        /// The explicit mask (`/Mask`) another image is drawn through.
        case mask
        /// The soft mask (`/SMask`) another image is drawn through.
        case smask
    }

    /// How the image's data is stored: its last filter.
    public enum Encoding: String, Hashable, Sendable, Codable {
        /// Samples, uncompressed or compressed losslessly (Flate, LZW, run length, ASCII).
        case image
        /// JPEG (`/DCTDecode`).
        case jpeg
        /// JPEG 2000 (`/JPXDecode`).
        case jpeg2000 = "jp2"
        /// JBIG2 (`/JBIG2Decode`).
        case jbig2
        /// CCITT fax (`/CCITTFaxDecode`).
        case ccitt
    }

    /// The page that draws it, from 0.
    public var pageIndex: Int
    /// Its place in the document's list, from 0.
    public var number: Int
    /// What the entry is: an image, a stencil mask, or another image's mask.
    public var role: Role
    /// Samples a row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// Its colour space as `pdfimages` names it: `gray`, `rgb`, `cmyk`, `lab`, `icc`,
    /// `index`, `sep`, `devn`; `-` for a stencil mask, `?` when the file does not say (a
    /// JPEG 2000 image that keeps its colours in its own data).
    public var colorSpace: String
    /// Components per sample.
    public var components: Int
    /// Bits per component.
    public var bitsPerComponent: Int
    /// How its data is stored.
    public var encoding: Encoding
    /// Whether the file asks for it to be interpolated when scaled up.
    public var interpolates: Bool
    /// The number and generation of its stream object; nil for an image inline in a content stream.
    public var object: ObjectNumber?
    /// For an inline image, its place among the inline images its page draws, from 0.
    public var inlineIndex: Int?
    /// Where the page's content draws it (its unit square through the transformation then
    /// in force), in page space; a mask's is its image's. Nil for what an annotation's
    /// appearance or a soft-mask group draws.
    public var bounds: PageRect?

    /// An indirect object's number and generation.
    public struct ObjectNumber: Hashable, Sendable, Codable {
        /// The object's number.
        public var number: Int
        /// The object's generation.
        public var generation: Int

        /// Object `number` of `generation`.
        public init(number: Int, generation: Int) {
            self.number = number
            self.generation = generation
        }
    }

    /// An entry with every field given.
    public init(
        pageIndex: Int, number: Int, role: Role, width: Int, height: Int, colorSpace: String, components: Int, bitsPerComponent: Int,
        encoding: Encoding, interpolates: Bool, object: ObjectNumber?, inlineIndex: Int?, bounds: PageRect? = nil
    ) {
        self.pageIndex = pageIndex
        self.number = number
        self.role = role
        self.width = width
        self.height = height
        self.colorSpace = colorSpace
        self.components = components
        self.bitsPerComponent = bitsPerComponent
        self.encoding = encoding
        self.interpolates = interpolates
        self.object = object
        self.inlineIndex = inlineIndex
        self.bounds = bounds
    }
}

/// An image's data as an engine gives it for extraction: a JPEG or JPEG 2000 file as the PDF
/// stores it, byte for byte, or its samples made 8-bit gray or RGB, rows top to bottom.
public struct ImageContents: Hashable, Sendable, Codable {
    /// What `data` holds.
    public enum Format: String, Hashable, Sendable, Codable {
        /// A JPEG file, the stream's bytes.
        case jpeg
        /// A JPEG 2000 file, the stream's bytes.
        case jpeg2000
        /// `width` x `height` bytes of luminance.
        case gray
        /// `width` x `height` x 3 bytes of red, green and blue.
        case rgb
    }

    /// What ``data`` holds.
    public var format: Format
    /// Samples a row (0 for a stored file).
    public var width: Int
    /// Rows (0 for a stored file).
    public var height: Int
    /// The file, or the samples.
    public var data: Data

    /// Contents of `format`: a stored file (`width` and `height` 0) or samples.
    public init(format: Format, width: Int, height: Int, data: Data) {
        self.format = format
        self.width = width
        self.height = height
        self.data = data
    }
}
