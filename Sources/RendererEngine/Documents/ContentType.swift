/// A MIME type that a renderer opens.
public struct ContentType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// PDF documents.
    public static let pdf = ContentType(rawValue: "application/pdf")
    /// XPS and OpenXPS documents: fixed pages in a ZIP package.
    public static let xps = ContentType(rawValue: "application/vnd.ms-xpsdocument")
    /// EPUB books: XHTML chapters in a ZIP package, laid out by the engine.
    public static let epub = ContentType(rawValue: "application/epub+zip")
    /// FictionBook 2 books: one XML file, laid out by the engine.
    public static let fb2 = ContentType(rawValue: "application/x-fictionbook+xml")
    /// Comic book archives: one image a page in a ZIP archive.
    public static let cbz = ContentType(rawValue: "application/vnd.comicbook+zip")
    /// PNG images, one page each.
    public static let png = ContentType(rawValue: "image/png")
    /// JPEG images, one page each.
    public static let jpeg = ContentType(rawValue: "image/jpeg")
    /// TIFF images, a page for each image in the file.
    public static let tiff = ContentType(rawValue: "image/tiff")

    /// Whether documents of this type lay their pages out themselves (a reader may choose
    /// the page and font size): EPUB and FictionBook.
    public var isReflowable: Bool { self == .epub || self == .fb2 }

    /// Whether a page of this type may have its own transparency (PNG and TIFF images):
    /// drawn for a thumbnail or an icon it keeps it, where other pages are drawn on white.
    public var mayBeTransparent: Bool { self == .png || self == .tiff }

    public var description: String { rawValue }
}
