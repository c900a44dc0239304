import CPopplerGlib
import EngineSupport
import RendererEngine

/// One page of a Poppler document; it keeps its document open. Its poppler-glib page is
/// loaded on first use (annotation work does not need it) and unreferenced in `deinit`.
final class PopplerPage: LinkReading, AnnotationWriting, ImageStamping {
    let document: PopplerDocument
    let index: Int
    let rotation: PageRotation
    private var glibPage: OpaquePointer?

    init(document: PopplerDocument, index: Int, rotation: PageRotation) {
        self.document = document
        self.index = index
        self.rotation = rotation
    }

    deinit {
        if let glibPage { g_object_unref(UnsafeMutableRawPointer(glibPage)) }
    }

    /// The poppler-glib page, showing every annotation change made before it was loaded.
    var handle: OpaquePointer {
        get throws {
            if let glibPage { return glibPage }
            let page = try document.currentPage(at: index)
            glibPage = page
            return page
        }
    }

    func info() throws -> PageInfo {
        let page = try handle
        var width = 0.0
        var height = 0.0
        poppler_page_get_size(page, &width, &height)
        let label = poppler_page_get_label(page)
        defer { g_free(label) }
        return PageInfo(
            index: index, size: PageSize(width: width, height: height), rotation: rotation,
            label: label.map { String(cString: $0) } ?? String(index + 1), boxes: document.core.boxes(ofPage: index))
    }

    /// Draws as `pdftocairo -cropbox` does, so the pixels are the same as its output;
    /// without annotations, through poppler-glib's printing path, the only one that leaves
    /// them out. poppler-glib clips to the crop box, so a box that reaches past it is
    /// `unsupported`.
    /// poppler-glib cannot stop within a page: cancellation is checked before drawing.
    func render(_ area: PixelRect, options: RenderOptions, into pixels: UnsafeMutableBufferPointer<UInt8>, cancellation: Cancellation?) throws {
        try cancellation?.check()
        let page = try handle
        if options.box != .crop {
            var width = 0.0, height = 0.0
            poppler_page_get_size(page, &width, &height)
            guard PixelRect.area(area, liesOnPageOf: PageSize(width: width, height: height), scale: options.scale) else {
                throw RendererError(
                    .unsupported, "Poppler draws only inside the crop box (poppler-glib clips to it), and page \(index + 1)'s \(options.box.rawValue) box reaches past it",
                    rendererID: PopplerErrors.rendererID)
            }
        }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(area.width)))
        guard stride > 0 else { throw PopplerErrors.cairoFailure(CAIRO_STATUS_INVALID_SIZE, doing: surfaceSize(area)) }
        try document.withDrawingMemory(count: stride * area.height) { memory in
            let surface = cairo_image_surface_create_for_data(memory, CAIRO_FORMAT_ARGB32, Int32(area.width), Int32(area.height), Int32(stride))!
            defer { cairo_surface_destroy(surface) }
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else { throw PopplerErrors.cairoFailure(status, doing: surfaceSize(area)) }
            let cairo = cairo_create(surface)!
            defer { cairo_destroy(cairo) }
            // The page is drawn on transparency and the background put behind it afterwards,
            // as pdftocairo does: blend modes and soft masks then see the same backdrop, and
            // a page drawn on white first differs in a few pixels (Ghostscript's colour
            // management manual, page 21).
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            cairo_paint(cairo)
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
            cairo_save(cairo)
            cairo_translate(cairo, -Double(area.x), -Double(area.y))
            cairo_scale(cairo, options.scale, options.scale)
            document.logging {
                if options.annotations {
                    poppler_page_render(page, cairo)
                } else {
                    poppler_page_render_for_printing_with_options(page, cairo, POPPLER_PRINT_DOCUMENT)
                }
            }
            cairo_restore(cairo)
            let background = options.background
            cairo_set_source_rgba(cairo, background.red, background.green, background.blue, options.pixelFormat == .rgba ? background.alpha : 1)
            cairo_set_operator(cairo, CAIRO_OPERATOR_DEST_OVER)
            cairo_paint(cairo)
            cairo_surface_flush(surface)
            let drawStatus = cairo_status(cairo)
            guard drawStatus == CAIRO_STATUS_SUCCESS else {
                throw PopplerErrors.cairoFailure(drawStatus, doing: "draw page \(index + 1)")
            }
            PopplerPixels.copy(fromARGB: surface, into: pixels, format: options.pixelFormat)
        }
    }

    /// The crop box poppler-glib reads and the `/Rotate` the core twin reads.
    func pageSpace() throws -> PageSpace {
        guard let space = document.pageSpace(ofPage: index) else { throw PopplerErrors.pageFailure(index) }
        return space
    }

    private func surfaceSize(_ area: PixelRect) -> String {
        "make a \(area.width) x \(area.height) pixel surface (cairo allows at most 32767 pixels a side)"
    }
}
