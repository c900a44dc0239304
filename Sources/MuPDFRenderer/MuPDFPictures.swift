import CMuPDF
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// New PDFs made of pictures, by MuPDF's writer (`cmupdf_images.c`).
extension MuPDFRenderer: PictureWriting {
    /// True: MuPDF writes PDFs of pictures.
    public var writesPictures: Bool { true }

    /// Writes the PDF with MuPDF's writer: each picture added as MuPDF reads it (a JPEG's
    /// data as it is), a page each, then the document saved whole.
    public func writePDF(fromPictures pictures: [Data], layout: ImagePageLayout, to path: String) throws -> Int {
        var error = cmupdf_error()
        guard let document = cmupdf_create_pdf(nil, nil, &error) else { throw MuPDFErrors.translate(error, doing: "create a PDF") }
        defer { cmupdf_close(document) }
        var cLayout = cmupdf_image_layout(
            page_width: Float(layout.paper?.width ?? 0), page_height: Float(layout.paper?.height ?? 0), margin: Float(layout.margin),
            maximum_pixels: Int64(layout.maximumPixelCount))
        var pages = 0
        for (index, picture) in pictures.enumerated() {
            let added = picture.withUnsafeBytes { bytes in
                cmupdf_append_image_pages(document, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &cLayout, &error)
            }
            guard added >= 0 else {
                let code: RendererError.Code = [Int32(CMUPDF_ERROR_LIMIT), Int32(CMUPDF_ERROR_MEMORY)].contains(error.code) ? .limitExceeded : .damaged
                throw RendererError(code, "picture \(index + 1) cannot be laid out: \(MuPDFErrors.message(of: error))", rendererID: MuPDFErrors.rendererID)
            }
            pages += Int(added)
        }
        guard cmupdf_save(document, path, 0, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "save to \(path)", code: error.code == Int32(CMUPDF_ERROR_IO) ? .ioFailure : .engineFailure)
        }
        return pages
    }
}
