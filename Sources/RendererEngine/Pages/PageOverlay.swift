#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Drawing laid onto pages as part of their content, in embedded fonts: what text stamps
/// (watermarks, headers, footers, Bates numbers) are written as.
public struct PageOverlays: Hashable, Sendable, Codable {
    /// The fonts the overlays draw in; overlay content names font `i` `/F<i>`.
    public var fonts: [EmbeddedFont]
    /// The drawings, each on its page.
    public var overlays: [PageOverlay]

    /// Overlays drawing in `fonts`.
    public init(fonts: [EmbeddedFont], overlays: [PageOverlay]) {
        self.fonts = fonts
        self.overlays = overlays
    }
}

/// One page's drawing: a content stream in the page's user space, written as a form XObject
/// of its own (so that its resource names never meet the page's), placed over or behind the
/// page's content, or shown by a watermark annotation.
public struct PageOverlay: Hashable, Sendable, Codable {
    /// Where the drawing goes.
    public enum Placement: String, Hashable, Sendable, Codable {
        /// Drawn after the page's content, over it.
        case over
        /// Drawn before the page's content, under it.
        case behind
        /// The appearance of a `/Watermark` annotation that prints and is not turned or
        /// zoomed with the page, over the page's content.
        case annotation
    }

    /// The page, by index.
    public var pageIndex: Int
    /// The operators (content stream syntax) in user space: fonts named `/F0`, `/F1`…
    /// (``PageOverlays/fonts``) and one graphics state `/GS0` with ``opacity``.
    public var contents: Data
    /// How opaque the drawing is, 0 to 1 (the graphics state's `/ca` and `/CA`).
    public var opacity: Double
    /// Where it goes.
    public var placement: Placement

    /// A page's drawing.
    public init(pageIndex: Int, contents: Data, opacity: Double = 1, placement: Placement = .over) {
        self.pageIndex = pageIndex
        self.contents = contents
        self.opacity = opacity
        self.placement = placement
    }
}
