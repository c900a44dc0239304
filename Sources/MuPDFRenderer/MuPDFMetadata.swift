import CMuPDF
import EngineSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

extension MuPDFDocument {
    /// Other formats have no XMP packet.
    func xmpPacket() throws -> Data? {
        contentType == .pdf ? try catalogXMPPacket() : nil
    }

    /// Other formats do nothing of themselves.
    func documentActions() throws -> DocumentActions {
        contentType == .pdf ? try catalogActions() : DocumentActions()
    }

    /// The images the pages draw, read over the PDF objects as every engine reads them;
    /// other formats have no PDF objects to read.
    func images() throws -> [DocumentImage] {
        guard contentType == .pdf else { throw RendererError(.unsupported, "MuPDF lists the images of PDFs only") }
        return try listImages(pages: 0..<pageCount)
    }

    func images(pages: [Int]) throws -> [DocumentImage] {
        guard contentType == .pdf else { throw RendererError(.unsupported, "MuPDF lists the images of PDFs only") }
        return try listImages(pages: pages)
    }

    /// What the pages draw with paths, read over the PDF objects as every engine reads them;
    /// nothing for other formats.
    func drawing(pages: [Int]) throws -> PageDrawing {
        contentType == .pdf ? try listDrawing(pages: pages) : PageDrawing()
    }

    func imageContents(_ image: DocumentImage) throws -> ImageContents {
        guard contentType == .pdf else { throw RendererError(.unsupported, "MuPDF extracts the images of PDFs only") }
        return try imageContents(of: image)
    }

    func setMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws {
        try writeMetadata(metadata, xmpPacket: xmpPacket)
    }
}

extension MuPDFDocument {
    func fonts() throws -> [FontInfo] {
        guard contentType == .pdf else { throw RendererError(.unsupported, "MuPDF lists the fonts of PDFs only") }
        final class Collector {
            var fonts: [FontInfo] = []
        }
        let collector = Collector()
        var error = cmupdf_error()
        let ok = cmupdf_fonts(handle, { user, name, subtype, descendant, hasFile in
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            let kind = MuPDFDocument.fontKind(subtype: subtype.map { String(cString: $0) }, descendant: descendant.map { String(cString: $0) })
            collector.fonts.append(FontInfo(name: name.map { String(cString: $0) }, kind: kind, isEmbedded: hasFile != 0 || kind == .type3))
        }, Unmanaged.passUnretained(collector).toOpaque(), &error)
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "list the fonts", code: .damaged) }
        return collector.fonts
    }

    /// The kind a font dictionary's `/Subtype` (and a Type0 font's descendant's) declares;
    /// a missing or unknown subtype is read as Type 1, as engines draw it.
    fileprivate static func fontKind(subtype: String?, descendant: String?) -> FontInfo.Kind {
        switch (subtype, descendant) {
        case ("Type0", "CIDFontType2"): return .cidTrueType
        case ("Type0", _): return .cidType0
        case ("TrueType", _): return .trueType
        case ("Type3", _): return .type3
        default: return .type1
        }
    }
}
