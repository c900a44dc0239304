import CMuPDF
import Foundation
import Logging
import RendererProvider

/// The MuPDF engine as a `Renderer`, with id `mupdf`.
public struct MuPDFRenderer: Renderer {
    public let id = "mupdf"
    public let engineName = "MuPDF"
    public let contentTypes: Set<ContentType> = [.pdf]
    public let capabilities: Set<Capability> = Set(Capability.allCases)
    public var annotationSupport: AnnotationSupport { Self.annotations }
    /// Where MuPDF's warnings and error reports go (never to stderr).
    public let logger: Logger

    /// A MuPDF renderer whose documents' warnings and errors go to `logger`.
    public init(logger: Logger = Logger(label: "renderer.mupdf")) {
        self.logger = logger
    }

    public var engineVersion: String { String(cString: cmupdf_version()) }

    /// MuPDF's store, its cache of fonts, images and glyphs, keeps `limits.cacheBytes`.
    public func openDocument(_ source: DocumentSource, password: String?, limits: DocumentLimits) throws -> any EngineDocument {
        try MuPDFDocument(source: source, password: password, cacheBytes: limits.cacheBytes, logger: logger)
    }

    public func pngData(for bitmap: Bitmap) throws -> Data {
        var error = cmupdf_error()
        var length = 0
        let encoded = MuPDFPixels.withEncoderPixels(of: bitmap) {
            cmupdf_encode_png(
                $0, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.stride),
                Int32(bitmap.format.bytesPerPixel), &length, &error)
        }
        guard let encoded else { throw MuPDFErrors.translate(error, doing: "encode a PNG") }
        return Data(bytesNoCopy: encoded, count: length, deallocator: .free)
    }

    /// MuPDF encodes straight into the file.
    public func writePNG(_ bitmap: Bitmap, to path: String) throws {
        var error = cmupdf_error()
        let ok = MuPDFPixels.withEncoderPixels(of: bitmap) {
            cmupdf_write_png(
                $0, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.stride),
                Int32(bitmap.format.bytesPerPixel), path, &error)
        }
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "write the PNG \(path)", code: .ioFailure) }
    }
}
