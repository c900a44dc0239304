import CMuPDF
import Foundation
import Logging
import RendererProvider

/// The MuPDF engine as a ``Renderer``, with id `mupdf`.
public struct MuPDFRenderer: Renderer {
    public let id = "mupdf"
    public let engineName = "MuPDF"
    public let contentTypes: Set<ContentType> = [.pdf]
    public let capabilities: Set<Capability> = Set(Capability.allCases)
    public var annotationSupport: AnnotationSupport { Self.annotations }
    /// Where MuPDF's warnings and error reports go (never to stderr).
    public let logger: Logger

    public init(logger: Logger = Logger(label: "renderer.mupdf")) {
        self.logger = logger
    }

    public var engineVersion: String { String(cString: cmupdf_version()) }

    public func openDocument(_ source: DocumentSource, password: String?) throws -> any EngineDocument {
        try MuPDFDocument(source: source, password: password, logger: logger)
    }

    public func pngData(for bitmap: Bitmap) throws -> Data {
        var pixels = bitmap.bytes
        if bitmap.format == .rgba {
            Bitmap.premultiplyRGBA(&pixels, width: bitmap.width, height: bitmap.height, stride: bitmap.stride)
        }
        var error = cmupdf_error()
        var length = 0
        let encoded = pixels.withUnsafeBufferPointer {
            cmupdf_encode_png(
                $0.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.stride),
                Int32(bitmap.format.bytesPerPixel), &length, &error)
        }
        guard let encoded else { throw MuPDFErrors.translate(error, doing: "encode a PNG") }
        return Data(bytesNoCopy: encoded, count: length, deallocator: .free)
    }
}
