/// A loaded page inside an engine, confined like its document.
///
/// ### Implementation requirements
/// - ``info()`` reports the size as displayed (crop box, rotation applied) in points.
/// - ``plainText()`` is the page's text in reading order as the engine's own text tool
///   writes it (`mutool draw -F txt`, `pdftotext`), up to whitespace.
/// - ``textPage()`` gives every character in reading order, grouped in the engine's lines
///   and blocks, each with a quad in page space tight to its glyphs: from the font's
///   ascender to its descender, not the font's whole height.
/// - ``links()`` gives the page's link areas in page space with resolved destinations;
///   links that lead nowhere resolvable are left out.
/// - ``annotations()`` lists the page's annotations in the order of its `/Annots` array,
///   leaving out links and popups, each identified as ``Annotation/id`` says (the
///   positional keys computed as EngineSupport's `AnnotationIdentity` does), geometry in page space.
/// - ``addAnnotation(_:)`` is only called with a kind and fields the renderer's
///   ``AnnotationSupport`` declares; the annotation's `id` is a new unique name, written as
///   `/NM` where the engine can. It stores an appearance or a form every viewer draws, and
///   returns the annotation as read back. ``updateAnnotation(_:)`` changes the annotation
///   with the same `id` to the given fields; both throw `invalidArgument` when the engine
///   refuses a value. ``removeAnnotation(id:)`` removes it with its popup. Identities of the
///   page's other annotations do not change while the document is open.
/// - ``render(_:options:into:cancellation:)`` draws the page at `options.scale` pixels per
///   point into `pixels`: exactly `area.height` rows of `area.width` pixels of
///   `options.pixelFormat`, without padding, where `area` is in device pixels with the
///   displayed page's top-left corner at (0, 0). It sets every byte, first filling the area
///   with `options.background` (RGBA output keeps its alpha, straight), and allocates no
///   second bitmap of the area's size where the engine can draw in place. The caller has
///   already checked `area` against the page and the limits. It throws `cancelled` if
///   `cancellation` is cancelled before it starts, or while it draws where the engine can
///   stop there.
public protocol EnginePage: AnyObject {
    /// The page's size as displayed, rotation and label.
    func info() throws -> PageInfo
    /// The page's text as the engine's own text tool writes it.
    func plainText() throws -> String
    /// Every character with its quad, in reading order, in lines and blocks.
    func textPage() throws -> TextPage
    /// The page's links with resolved destinations.
    func links() throws -> [Link]
    /// Draws `area` of the page into `pixels`, as the requirements above say.
    func render(_ area: PixelRect, options: RenderOptions, into pixels: UnsafeMutableBufferPointer<UInt8>, cancellation: Cancellation?) throws
    /// How the page's user space maps onto page space.
    func pageSpace() throws -> PageSpace
    /// The page's annotations in `/Annots` order, without links and popups.
    func annotations() throws -> [Annotation]
    /// Adds an annotation and returns it as read back.
    func addAnnotation(_ annotation: Annotation) throws -> Annotation
    /// Changes the annotation with the same identity and returns it as read back.
    func updateAnnotation(_ annotation: Annotation) throws -> Annotation
    /// Removes the annotation with this identity, with its popup.
    func removeAnnotation(id: String) throws
    /// Adds the stamp annotation `annotation` with an appearance that draws `image` over
    /// its whole rectangle, and returns it as read back; nothing is added when it throws.
    func addImageStamp(_ annotation: Annotation, image: StampImage) throws -> Annotation
    /// Applies the page's redaction annotations: removes the content under them and then
    /// them, drawing a black box over each area when `blackBoxes` is set. Returns whether the
    /// page had any.
    func applyRedactions(blackBoxes: Bool) throws -> Bool
}

extension EnginePage {
    /// Throws `unsupported`: an engine that declares ``Capability/links`` implements it.
    public func links() throws -> [Link] {
        throw RendererError(.unsupported, "this engine does not read links")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/annotations`` implements it.
    public func annotations() throws -> [Annotation] {
        throw RendererError(.unsupported, "this engine does not read annotations")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editAnnotations`` implements it.
    public func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        throw RendererError(.unsupported, "this engine does not edit annotations")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editAnnotations`` implements it.
    public func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        throw RendererError(.unsupported, "this engine does not edit annotations")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/editAnnotations`` implements it.
    public func removeAnnotation(id: String) throws {
        throw RendererError(.unsupported, "this engine does not edit annotations")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/imageStamps`` implements it.
    public func addImageStamp(_ annotation: Annotation, image: StampImage) throws -> Annotation {
        throw RendererError(.unsupported, "this engine does not draw images in stamps")
    }

    /// Throws `unsupported`: an engine that declares ``Capability/redact`` implements it.
    public func applyRedactions(blackBoxes: Bool) throws -> Bool {
        throw RendererError(.unsupported, "this engine does not apply redactions")
    }
}
