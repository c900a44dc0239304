import Foundation
import GhostscriptRenderer
import MuPDFRenderer
import PopplerRenderer
import RendererProvider

/// Something a test holds a PDF as: a file URL, the file's bytes, or an open `Document`.
public protocol PDFSource: Sendable {
    /// The PDF opened with the renderer `renderer` of `registry` (an open document is read
    /// again from its bytes when another renderer is asked for).
    func document(renderer: String, registry: RendererRegistry) throws -> Document
}

/// A PDF file, by its file URL.
extension URL: PDFSource {
    /// The file this URL names; `invalidArgument` for a URL that is not a file URL.
    public func document(renderer: String, registry: RendererRegistry) throws -> Document {
        guard isFileURL else { throw RendererError(.invalidArgument, "a PDF to test is a file URL, not \(absoluteString)") }
        return try registry.open(.file(path), password: nil, renderer: .id(renderer))
    }
}

/// A PDF file's bytes.
extension Data: PDFSource {
    /// These bytes, read in memory.
    public func document(renderer: String, registry: RendererRegistry) throws -> Document {
        try registry.open(.memory(self), password: nil, renderer: .id(renderer))
    }
}

/// An open document.
extension Document: PDFSource {
    /// This document when it is open with `renderer`, else its bytes opened with it.
    public func document(renderer: String, registry: RendererRegistry) throws -> Document {
        renderer == rendererID ? self : try registry.open(.memory(try sourceData()), password: nil, renderer: .id(renderer))
    }
}

/// The engines the testing forms draw with.
public enum TestingRenderers {
    /// MuPDF, Poppler and Ghostscript, in that order: ids `mupdf`, `poppler`, `ghostscript`.
    public static let registry = RendererRegistry([MuPDFRenderer(), PopplerRenderer(), GhostscriptRenderer()])
    /// The renderer references are drawn with unless a test names another: MuPDF.
    public static let defaultRenderer = "mupdf"
}
