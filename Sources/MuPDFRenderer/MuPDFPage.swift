import CMuPDF
import EngineSupport
import RendererProvider

/// One loaded MuPDF page, dropped in `deinit`; it keeps its document open.
final class MuPDFPage: EnginePage {
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
            label: try document.label(forPage: index))
    }

    /// MuPDF draws straight into `pixels` and stops within the page when `cancellation` is
    /// cancelled.
    func render(_ area: PixelRect, options: RenderOptions, into pixels: UnsafeMutableBufferPointer<UInt8>, cancellation: Cancellation?) throws {
        try cancellation?.check()
        guard let cookie = cmupdf_new_cookie() else { throw RendererError(.limitExceeded, "out of memory", backend: MuPDFErrors.backend) }
        defer { cmupdf_drop_cookie(cookie) }
        let abort = CookieHandle(cookie)
        let format = options.pixelFormat
        let background = Self.backgroundBytes(options.background, format: format)
        var error = cmupdf_error()
        func draw() -> Int32 {
            background.withUnsafeBufferPointer {
                cmupdf_render(
                    document.handle, handle, Float(options.scale), Int32(area.x), Int32(area.y),
                    Int32(area.width), Int32(area.height), Int32(format.bytesPerPixel), $0.baseAddress,
                    pixels.baseAddress, cookie, &error)
            }
        }
        let ok = cancellation.map { $0.whileRunning(draw, onCancel: abort.abort) } ?? draw()
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "draw page \(index + 1)", code: .damaged) }
        if format == .rgba {
            Bitmap.unpremultiplyRGBA(pixels, width: area.width, height: area.height, stride: area.width * 4)
        }
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

    /// The background as MuPDF pixel bytes: gray as luminance, RGBA premultiplied.
    private static func backgroundBytes(_ color: Color, format: PixelFormat) -> [UInt8] {
        let (r, g, b, a) = color.bytes
        switch format {
        case .gray: return [Bitmap.luminance(red: r, green: g, blue: b)]
        case .rgb: return [r, g, b]
        case .rgba:
            var pixel = [r, g, b, a]
            Bitmap.premultiplyRGBA(&pixel, width: 1, height: 1, stride: 4)
            return pixel
        }
    }
}
