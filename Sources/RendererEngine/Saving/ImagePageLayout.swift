#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How pictures become the pages of a new PDF (``PictureWriting``).
public struct ImagePageLayout: Hashable, Sendable, Codable {
    /// The paper every page has, the picture fitted within ``margin`` of each edge, centred,
    /// its proportions kept; nil: each page is the picture's own size at its resolution
    /// (96 dpi when it states none), the picture filling it.
    public var paper: PageSize?
    /// The room left at each edge of ``paper``, in points.
    public var margin: Double
    /// A picture of more pixels is refused (`limitExceeded`), before it is decoded.
    public var maximumPixelCount: Int

    /// A layout on `paper` (nil: each page the picture's size) within `margin` points of its
    /// edges, refusing pictures of more than `maximumPixelCount` pixels.
    public init(paper: PageSize? = nil, margin: Double = 0, maximumPixelCount: Int = RenderOptions.defaultMaximumPixelCount) {
        self.paper = paper
        self.margin = margin
        self.maximumPixelCount = maximumPixelCount
    }
}

/// A renderer whose engine writes new PDFs made of pictures: one page per picture (per
/// page of a TIFF), JPEG data stored as it is (its bytes the stream's, as img2pdf stores
/// them), other formats losslessly.
public protocol PictureWriting: Renderer {
    /// Whether ``writePDF(fromPictures:layout:to:)`` writes (a renderer that forwards to
    /// another engine says whether that engine does); when false, it throws `unsupported`.
    var writesPictures: Bool { get }

    /// Writes to `path` a new PDF of `pictures` (each a JPEG, PNG or TIFF file's bytes), in
    /// order, laid out as `layout` says (the caller checked that its paper and margins leave
    /// room); returns the number of pages. Throws `damaged` for bytes that are no picture the
    /// engine reads and `limitExceeded` for a picture past the layout's pixel limit.
    func writePDF(fromPictures pictures: [Data], layout: ImagePageLayout, to path: String) throws -> Int
}
