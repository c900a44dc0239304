import CMuPDF
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import RendererEngine

/// The MuPDF engine as a `Renderer`, with id `mupdf`.
public struct MuPDFRenderer: Renderer {
    public let id = "mupdf"
    public let engineName = "MuPDF"
    /// PDF, and the other formats MuPDF reads: XPS, EPUB, FictionBook, CBZ and images.
    public let contentTypes: Set<ContentType> = [.pdf, .xps, .epub, .fb2, .cbz, .png, .jpeg, .tiff]
    /// Everything but reading structure trees, which MuPDF 1.21 does not.
    public let capabilities: Set<Capability> = Set(Capability.allCases).subtracting([.structureTree])
    public var annotationSupport: AnnotationSupport { Self.annotations }
    /// Where MuPDF's warnings and error reports go (never to stderr).
    public let logger: Logger

    /// Whether a file MuPDF has to repair to open is served; when false, it is refused as
    /// `damaged`, for a caller that would rather hand such files to another engine.
    public let opensRepairedFiles: Bool

    /// A MuPDF renderer whose documents' warnings and errors go to `logger`, opening files
    /// that need repair unless `opensRepairedFiles` is false.
    public init(logger: Logger = Logger(label: "renderer.mupdf"), opensRepairedFiles: Bool = true) {
        self.logger = logger
        self.opensRepairedFiles = opensRepairedFiles
    }

    public var engineVersion: String { String(cString: cmupdf_version()) }

    /// ``capabilities`` for PDF. Other formats are read: opened, drawn, their text, outline, links
    /// and metadata read (and EPUB and FictionBook laid out), their annotations, form fields
    /// and signatures listed (they have none); nothing in them is changed or saved.
    public func capabilities(for contentType: ContentType) -> Set<Capability> {
        guard contentType != .pdf else { return capabilities }
        let reading: Set<Capability> = [
            .openFile, .openMemory, .openStream, .metadata, .pageLabels, .render, .text, .outline, .links, .annotations, .forms,
            .signatures,
        ]
        return contentType.isReflowable ? reading.union([.reflow]) : reading
    }

    /// The name MuPDF recognises a format by (a file extension); nil for PDF, which it
    /// opens with its PDF reader directly.
    static func magic(for contentType: ContentType) -> String? {
        switch contentType {
        case .xps: "xps"
        case .epub: "epub"
        case .fb2: "fb2"
        case .cbz: "cbz"
        case .png: "png"
        case .jpeg: "jpg"
        case .tiff: "tif"
        default: nil
        }
    }

    /// MuPDF's store, its cache of fonts, images and glyphs, keeps `limits.cacheBytes`.
    public func openDocument(_ source: DocumentSource, password: String?, limits: DocumentLimits) throws -> any EngineDocument {
        try MuPDFDocument(source: source, password: password, cacheBytes: limits.cacheBytes, opensRepairedFiles: opensRepairedFiles, logger: logger)
    }
}
