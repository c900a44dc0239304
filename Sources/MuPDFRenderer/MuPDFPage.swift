import CMuPDF
import EngineSupport
import RendererEngine

/// One loaded MuPDF page, dropped in `deinit`; it keeps its document open.
final class MuPDFPage: LinkReading, AnnotationWriting, ImageStamping, Redacting {
    let document: MuPDFDocument
    let handle: OpaquePointer
    let index: Int

    init(document: MuPDFDocument, handle: OpaquePointer, index: Int) {
        self.document = document
        self.handle = handle
        self.index = index
    }

    deinit {
        cmupdf_drop_page(document.handle, handle)
    }

    func info() throws -> PageInfo {
        var geometry = cmupdf_geometry()
        var error = cmupdf_error()
        guard cmupdf_page_geometry(document.handle, handle, &geometry, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "measure page \(index + 1)", code: .damaged)
        }
        return PageInfo(
            index: index,
            size: PageSize(width: Double(geometry.x1 - geometry.x0), height: Double(geometry.y1 - geometry.y0)),
            rotation: PageRotation(degrees: Int(geometry.rotation)) ?? .none,
            label: try document.label(forPage: index), boxes: try boxes())
    }

    /// The page's five boxes, read from its dictionary and page tree, with the PDF's rules.
    private func boxes() throws -> PageBoxes {
        var numbers = [Double](repeating: 0, count: 20)
        var given: Int32 = 0
        var error = cmupdf_error()
        guard cmupdf_page_boxes(document.handle, handle, &numbers, &given, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "read the boxes of page \(index + 1)", code: .damaged)
        }
        func box(_ i: Int) -> UserRect? {
            given & (1 << i) == 0 ? nil : UserRect(x0: numbers[4 * i], y0: numbers[4 * i + 1], x1: numbers[4 * i + 2], y1: numbers[4 * i + 3])
        }
        return PageBoxes(media: box(0)!, crop: box(1), bleed: box(2), trim: box(3), art: box(4))
    }

    /// MuPDF draws straight into `pixels` and stops within the page when `cancellation` is
    /// cancelled.
    func render(_ area: PixelRect, options: RenderOptions, into pixels: UnsafeMutableBufferPointer<UInt8>, cancellation: Cancellation?) throws {
        try cancellation?.check()
        guard let cookie = cmupdf_new_cookie() else { throw RendererError(.limitExceeded, "out of memory", rendererID: MuPDFErrors.rendererID) }
        defer { cmupdf_drop_cookie(cookie) }
        let abort = CookieHandle(cookie)
        let format = options.pixelFormat
        let background = MuPDFPixels.background(options.background, format: format)
        var error = cmupdf_error()
        func draw() -> Int32 {
            background.withUnsafeBufferPointer {
                cmupdf_render(
                    document.handle, handle, Float(options.scale), Int32(area.x), Int32(area.y),
                    Int32(area.width), Int32(area.height), Int32(format.bytesPerPixel), $0.baseAddress,
                    options.annotations ? 1 : 0, pixels.baseAddress, cookie, &error)
            }
        }
        let ok = cancellation.map { $0.whileRunning(draw, onCancel: abort.abort) } ?? draw()
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "draw page \(index + 1)", code: .damaged) }
        if format == .rgba { MuPDFPixels.straightenAlpha(pixels, area: area) }
    }

    /// MuPDF's page transform: the crop box in user space, and `/Rotate` to the nearest quarter turn.
    func pageSpace() throws -> PageSpace {
        var box: (Float, Float, Float, Float) = (0, 0, 0, 0)
        var rotation: Int32 = 0
        var error = cmupdf_error()
        let ok = withUnsafeMutableBytes(of: &box) {
            cmupdf_page_space(document.handle, handle, $0.baseAddress!.assumingMemoryBound(to: Float.self), &rotation, &error)
        }
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "measure page \(index + 1)", code: .damaged) }
        return PageSpace(
            cropBox: UserRect(x0: Double(box.0), y0: Double(box.1), x1: Double(box.2), y1: Double(box.3)),
            rotation: PageRotation(degrees: Int(rotation)) ?? .none)
    }

    /// A drawing's cookie, aborted from the cancelling thread.
    ///
    /// `@unchecked Sendable`: MuPDF's cookie is meant to be aborted from another thread
    /// while it draws; the cookie outlives every use (`render` drops it after drawing).
    private struct CookieHandle: @unchecked Sendable {
        let cookie: OpaquePointer
        init(_ cookie: OpaquePointer) { self.cookie = cookie }
        func abort() { cmupdf_abort_cookie(cookie) }
    }
}
