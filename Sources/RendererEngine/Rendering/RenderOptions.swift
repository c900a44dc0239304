/// How to draw a page into a ``Bitmap``.
public struct RenderOptions: Hashable, Sendable, Codable {
    /// Pixels per inch; 72 draws one pixel per point.
    public var dpi: Double
    /// The part of the page to draw, in page space; `nil` draws the whole page. A clip that
    /// reaches past the page is cut to the page. With a ``box`` other than the crop box,
    /// the clip is in points from that box's top-left corner as displayed, and is cut to it.
    public var clip: PageRect?
    /// The page box the bitmap covers, turned with the page (default: the crop box, the
    /// page as displayed). A backend that cannot draw past the crop box throws
    /// `unsupported` for a box that reaches past it.
    public var box = PageBox.crop
    /// The channels of the bitmap's pixels.
    public var pixelFormat: PixelFormat
    /// What the page is drawn on. Formats without alpha ignore the background's alpha.
    public var background: Color
    /// The most pixels one bitmap may have; a larger request fails with
    /// ``RendererError/Code-swift.struct/limitExceeded`` before anything is allocated.
    public var maximumPixelCount: Int
    /// Draws the page for a dark screen: every colour's lightness inverted, its hue and
    /// saturation kept (`Bitmap.invertLightness()`), so white paper becomes black and
    /// black text white while a red mark stays red.
    public var darkMode: Bool
    /// Draws the page's annotations, form fields' widgets among them, over its content (the
    /// default). Without, only the page's own content is drawn: MuPDF runs the page's
    /// content alone, and Poppler draws through its printing path with no annotation,
    /// which may differ from its screen drawing in a few pixels of text.
    public var annotations = true
    /// Which optional-content groups are drawn (default: as the document's default
    /// configuration has them). Another choice needs ``Capability/optionalContent``.
    public var optionalContent = OptionalContentVisibility()
    /// Draws the page (or its clip) at the largest resolution at which its image is at most
    /// this many pixels wide and high, its proportions kept, in place of ``dpi``; the
    /// resolution found must stay within ``maximumDPI``. Nil (the default) draws at ``dpi``.
    public var fitting: PixelSize?
    /// The highest resolution allowed; a higher one fails with
    /// ``RendererError/Code-swift.struct/limitExceeded`` before anything is drawn.
    public var maximumDPI: Double

    /// The default limit: 2^28 pixels (1 GiB of RGBA), a 72 x 72 inch page at 300 dpi.
    public static let defaultMaximumPixelCount = 1 << 28
    /// The default limit: 4800 dpi, enough for a viewer's 6400% zoom.
    public static let defaultMaximumDPI = 4800.0

    /// Options as each property describes.
    public init(
        dpi: Double = 72, clip: PageRect? = nil, pixelFormat: PixelFormat = .rgb,
        background: Color = .white, maximumPixelCount: Int = RenderOptions.defaultMaximumPixelCount,
        maximumDPI: Double = RenderOptions.defaultMaximumDPI, darkMode: Bool = false
    ) {
        self.dpi = dpi
        self.clip = clip
        self.pixelFormat = pixelFormat
        self.background = background
        self.maximumPixelCount = maximumPixelCount
        self.maximumDPI = maximumDPI
        self.darkMode = darkMode
    }

    /// Options that draw at `scale` pixels per point (dpi = 72 x scale).
    public init(scale: Double, clip: PageRect? = nil, pixelFormat: PixelFormat = .rgb, background: Color = .white) {
        self.init(dpi: scale * 72, clip: clip, pixelFormat: pixelFormat, background: background)
    }

    /// Pixels per point.
    public var scale: Double { dpi / 72 }
}
