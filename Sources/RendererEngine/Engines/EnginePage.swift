/// A loaded page inside an engine, confined like its document.
///
/// ### Implementation requirements
/// - ``info()`` reports the size as displayed (crop box, rotation applied) in points.
/// - ``plainText()`` is the page's text in reading order as the engine's own text tool
///   writes it (`mutool draw -F txt`, `pdftotext`), up to whitespace.
/// - ``textPage()`` gives every character in reading order, grouped in the engine's lines
///   and blocks, each with a quad in page space tight to its glyphs: from the font's
///   ascender to its descender, not the font's whole height.
/// - ``render(_:options:into:cancellation:)`` draws the page at `options.scale` pixels per
///   point into `pixels`: exactly `area.height` rows of `area.width` pixels of
///   `options.pixelFormat`, without padding, where `area` is in device pixels with the
///   displayed page's top-left corner at (0, 0). It sets every byte, first filling the area
///   with `options.background` (RGBA output keeps its alpha, straight), and allocates no
///   second bitmap of the area's size where the engine can draw in place. The caller has
///   already checked `area` against the page and the limits. It throws `cancelled` if
///   `cancellation` is cancelled before it starts, or while it draws where the engine can
///   stop there.
///
/// What else a page does, it does by conforming to a page capability protocol
/// (``LinkReading``, ``AnnotationReading``, ``AnnotationWriting``, ``ImageStamping``,
/// ``Redacting``), each without default answers.
public protocol EnginePage: AnyObject {
    /// The page's size as displayed, rotation and label.
    func info() throws -> PageInfo
    /// The page's text as the engine's own text tool writes it.
    func plainText() throws -> String
    /// Every character with its quad, in reading order, in lines and blocks.
    func textPage() throws -> TextPage
    /// Draws `area` of the page into `pixels`, as the requirements above say.
    func render(_ area: PixelRect, options: RenderOptions, into pixels: UnsafeMutableBufferPointer<UInt8>, cancellation: Cancellation?) throws
    /// How the page's user space maps onto page space.
    func pageSpace() throws -> PageSpace
}

