#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Document {
    /// Draws the page at `index` (or the part `options.clip` selects) into a new bitmap.
    ///
    /// The bitmap is `ceil(width x dpi / 72)` by `ceil(height x dpi / 72)` pixels of the page
    /// as displayed (or of the clip, cut to the page), rounded as `PixelRect.init(covering:scale:)`
    /// says, in rows without padding. Throws `invalidArgument` for a resolution that is not a
    /// positive number or a clip outside the page, and `limitExceeded` when the resolution is
    /// past `options.maximumDPI` or the bitmap would have more than `options.maximumPixelCount`
    /// pixels; all before anything is drawn or allocated. Throws `cancelled` when
    /// `cancellation` is cancelled before or (with MuPDF) while it draws, and `limitExceeded`
    /// when its time limit runs out then. With `options.darkMode`, the drawn pixels' lightness
    /// is inverted (`Bitmap.invertLightness()`), the background's included. With
    /// `options.optionalContent` other than the default, the optional-content groups are
    /// shown and hidden as it says (`Capability.optionalContent`; `invalidArgument`, before
    /// drawing, for a group the document lacks) for this drawing alone.
    public func render(pageAt index: Int, options: RenderOptions = RenderOptions(), cancellation: Cancellation? = nil) throws -> Bitmap {
        var bitmap = Bitmap()
        try render(pageAt: index, options: options, into: &bitmap, cancellation: cancellation)
        return bitmap
    }

    /// Draws the page as ``render(pageAt:options:cancellation:)`` does, into `bitmap`, whose
    /// storage is reused when it is large enough: rendering page after page into one bitmap
    /// allocates memory only when a page needs more than the pages before. The engine draws
    /// straight into that storage. When it throws, `bitmap`'s size is unchanged if the error
    /// came before drawing, and its pixels are unspecified otherwise.
    public func render(pageAt index: Int, options: RenderOptions = RenderOptions(), into bitmap: inout Bitmap, cancellation: Cancellation? = nil) throws {
        if let fitting = options.fitting, fitting.width < 1 || fitting.height < 1 {
            throw RendererError(.invalidArgument, "an image to fit must be at least 1 x 1 pixels, not \(fitting.width) x \(fitting.height)")
        }
        if options.fitting == nil { try Self.check(resolution: options) }
        if !options.optionalContent.isDefault { try require(.optionalContent) }
        try withPage(index, needing: .render) { page, document in
            let frame = try Self.frame(of: page.info(), box: options.box)
            let clip = options.clip.map { PageRect(x: $0.minX + frame.minX, y: $0.minY + frame.minY, width: $0.size.width, height: $0.size.height) }
            let area = try Self.area(of: frame, clip: clip)
            var options = options
            if let fitting = options.fitting {
                options.dpi = Self.resolution(fitting: area, in: fitting)
                try Self.check(resolution: options)
            }
            let pixels = try Self.pixels(covering: area, options: options, page: index)
            let groups = try Self.optionalContentGroups(checking: options.optionalContent, in: document)
            try bitmap.reshape(width: pixels.width, height: pixels.height, format: options.pixelFormat) { buffer in
                do {
                    try Self.drawing(options.optionalContent, of: groups, in: document) {
                        try page.render(pixels, options: options, into: buffer, cancellation: cancellation)
                    }
                } catch var stopped as RendererError where stopped.code == .cancelled {
                    // The engine stopped because of `cancellation`: report why (a time limit or a cancel).
                    if let reason = cancellation?.error { (stopped.code, stopped.message) = (reason.code, reason.message) }
                    throw stopped
                }
            }
        }
        if options.darkMode { bitmap.invertLightness() }
    }

    /// Draws the page as ``render(pageAt:options:cancellation:)`` does and writes it as an
    /// image file, as ``write(_:as:to:png:jpegQuality:)-(_,_,String,_,_)`` does with `png` and `jpegQuality`.
    /// The pixels go from the engine to the encoder through one buffer that the document
    /// keeps for the next call (and frees when it is closed), so rendering a whole document
    /// allocates about one page's pixels. Returns the image's size in pixels.
    @discardableResult
    public func render(
        pageAt index: Int, options: RenderOptions = RenderOptions(), as format: ImageFileFormat, to path: String,
        png: PNGEncoding = PNGEncoding(), jpegQuality: Int = Bitmap.defaultJPEGQuality, cancellation: Cancellation? = nil
    ) throws -> (width: Int, height: Int) {
        var bitmap = scratch.withLock { scratch in
            defer { scratch = Bitmap() }
            return scratch
        }
        defer { scratch.withLock { [bitmap] in $0 = bitmap } }
        try render(pageAt: index, options: options, into: &bitmap, cancellation: cancellation)
        try write(bitmap, as: format, to: path, png: png, jpegQuality: jpegQuality)
        return (bitmap.width, bitmap.height)
    }

    /// Draws the page and writes it as an image file into the local file `url` names, as
    /// ``render(pageAt:options:as:to:png:jpegQuality:cancellation:)-(_,_,_,String,_,_,_)``
    /// does; `invalidArgument` for a URL that is not a file URL.
    @discardableResult
    public func render(
        pageAt index: Int, options: RenderOptions = RenderOptions(), as format: ImageFileFormat, to url: URL,
        png: PNGEncoding = PNGEncoding(), jpegQuality: Int = Bitmap.defaultJPEGQuality, cancellation: Cancellation? = nil
    ) throws -> (width: Int, height: Int) {
        try render(pageAt: index, options: options, as: format, to: url.localFilePath(), png: png, jpegQuality: jpegQuality, cancellation: cancellation)
    }

    /// Writes the bitmap as an image file at `path`, as ``encode(_:as:png:jpegQuality:)``
    /// makes it, but straight from the bitmap's bytes to the file. The file appears complete
    /// or not at all: it is written under a temporary name beside `path`, which is removed on
    /// failure, and renamed into place. Throws `ioFailure`, naming the file, when it cannot
    /// be written.
    public func write(
        _ bitmap: Bitmap, as format: ImageFileFormat, to path: String, png: PNGEncoding = PNGEncoding(),
        jpegQuality: Int = Bitmap.defaultJPEGQuality
    ) throws {
        try AtomicFile.replace(path, durable: false) { temporary in
            try bitmap.writeImage(as: format, to: temporary, png: png, jpegQuality: jpegQuality)
        }
    }

    /// Writes the bitmap as an image file into the local file `url` names, as
    /// ``write(_:as:to:png:jpegQuality:)-(_,_,String,_,_)`` does; `invalidArgument` for a URL
    /// that is not a file URL.
    public func write(
        _ bitmap: Bitmap, as format: ImageFileFormat, to url: URL, png: PNGEncoding = PNGEncoding(),
        jpegQuality: Int = Bitmap.defaultJPEGQuality
    ) throws {
        try write(bitmap, as: format, to: url.localFilePath(), png: png, jpegQuality: jpegQuality)
    }

    /// The bitmap as an image file: PNG as `png` says, JPEG at `jpegQuality`, PNM or PAM
    /// directly.
    public func encode(
        _ bitmap: Bitmap, as format: ImageFileFormat, png: PNGEncoding = PNGEncoding(), jpegQuality: Int = Bitmap.defaultJPEGQuality
    ) throws -> Data {
        try bitmap.imageData(as: format, png: png, jpegQuality: jpegQuality)
    }

    /// Where `box` lies in page space: the displayed page for the crop box, else the box
    /// turned with the page (it may reach past the crop box, to negative coordinates).
    private static func frame(of info: PageInfo, box: PageBox) throws -> PageRect {
        guard box != .crop else { return PageRect(x: 0, y: 0, width: info.size.width, height: info.size.height) }
        guard let boxes = info.boxes else {
            throw RendererError(.unsupported, "the backend does not read page \(info.index + 1)'s \(box.rawValue) box")
        }
        return PageSpace(cropBox: boxes.crop, rotation: info.rotation).rect(boxes[box])
    }

    private static func area(of page: PageRect, clip: PageRect?) throws -> PageRect {
        guard let clip else { return page }
        let area = clip.intersection(page)
        guard !area.isEmpty else {
            throw RendererError(
                .invalidArgument,
                "clip \(clip.minX),\(clip.minY) \(clip.size.width)x\(clip.size.height) pt does not overlap the \(page.size.width)x\(page.size.height) pt page")
        }
        return area
    }

    private static func check(resolution options: RenderOptions) throws {
        guard options.dpi.isFinite, options.dpi > 0 else {
            throw RendererError(.invalidArgument, "resolution must be a positive number of dpi, not \(options.dpi)")
        }
        guard options.dpi <= options.maximumDPI else { throw tooFine(options) }
    }

    private static func tooFine(_ options: RenderOptions) -> RendererError {
        RendererError(.limitExceeded, "\(options.dpi.groupedText) dpi is more than the limit of \(options.maximumDPI.groupedText) dpi")
    }

    private static func tooLarge(_ area: PageRect, _ options: RenderOptions) -> RendererError {
        let covering = PixelRect(covering: area, scale: options.scale)
        let width = covering.map { Double($0.width) } ?? (area.size.width * options.scale).rounded(.up)
        let height = covering.map { Double($0.height) } ?? (area.size.height * options.scale).rounded(.up)
        return RendererError(
            .limitExceeded,
            "at \(options.dpi.groupedText) dpi the page would be \(width.groupedText) x \(height.groupedText) pixels, more than the limit of \(Double(options.maximumPixelCount).groupedText) pixels; lower the resolution or render a clip")
    }

    /// The largest resolution, in dpi, at which the pixels covering `area` are at most `size`.
    private static func resolution(fitting area: PageRect, in size: PixelSize) -> Double {
        var scale = min(Double(size.width) / area.size.width, Double(size.height) / area.size.height)
        // A pixel partly covered at an edge counts: step down until the image fits.
        for _ in 0..<16 {
            guard let pixels = PixelRect(covering: area, scale: scale), pixels.width > size.width || pixels.height > size.height else { break }
            scale *= 0.999
        }
        return scale * 72
    }

    private static func pixels(covering area: PageRect, options: RenderOptions, page: Int) throws -> PixelRect {
        guard let pixels = PixelRect(covering: area, scale: options.scale), pixels.pixelCount <= options.maximumPixelCount else {
            throw tooLarge(area, options)
        }
        guard pixels.width > 0, pixels.height > 0 else {
            throw RendererError(.invalidArgument, "page \(page + 1) at \(options.dpi) dpi is smaller than one pixel")
        }
        return pixels
    }
}
