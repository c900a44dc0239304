/// One of a page's five boxes: what ``RenderOptions/box`` draws.
public enum PageBox: String, Hashable, Sendable, Codable, CaseIterable {
    /// The medium the page is printed on.
    case media
    /// What is displayed and printed (the default everywhere).
    case crop
    /// The region the content is clipped to in production.
    case bleed
    /// The finished page after trimming.
    case trim
    /// The page's meaningful content.
    case art
}

/// A page's five boxes (ISO 32000-1, 14.11.2), in PDF user space, as the document defines
/// them once the PDF's rules are applied: the media box and the crop box are inherited from
/// the page tree; the crop box defaults to the media box, and the bleed, trim and art boxes
/// to the crop box; a box that reaches past the media box is cut to it; corners written in
/// any order are given lower-left first. `pdfinfo -box` prints the same figures.
public struct PageBoxes: Hashable, Sendable, Codable {
    /// The medium the page is printed on.
    public var media: UserRect
    /// What is displayed and printed: the region ``PageInfo/size`` measures.
    public var crop: UserRect
    /// Where the page's content is clipped in production, with room for bleed.
    public var bleed: UserRect
    /// The finished page after trimming.
    public var trim: UserRect
    /// The page's meaningful content, as its creator meant it.
    public var art: UserRect

    /// Boxes as each property describes.
    public init(media: UserRect, crop: UserRect, bleed: UserRect, trim: UserRect, art: UserRect) {
        self.media = media
        self.crop = crop
        self.bleed = bleed
        self.trim = trim
        self.art = art
    }

    /// The box of that kind.
    public subscript(box: PageBox) -> UserRect {
        switch box {
        case .media: media
        case .crop: crop
        case .bleed: bleed
        case .trim: trim
        case .art: art
        }
    }
}
