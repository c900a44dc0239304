import CMuPDF
import EngineSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// Page editing: MuPDF's own calls edit its page tree; the pages put into it are made over
/// the PDF-object primitives (EngineSupport's `addBlankPage(size:)` and `copyPages(_:of:)`),
/// as for every engine.
extension MuPDFDocument {
    func insertBlankPage(at index: Int, size: PageSize) throws {
        let page = try addBlankPage(size: size)
        try edit("insert a page") { cmupdf_insert_page_object(handle, Int32(index), Int32(page.number), &$0) }
    }

    /// MuPDF takes the pages out of its tree; what pointed to them is dropped over the
    /// PDF-object primitives (`dropReferences(toPages:)`), as for every engine.
    func deletePages(_ indices: [Int]) throws -> PageEditReport {
        let gone = try indices.map { try pageReference(at: $0).number }
        let pages = indices.map { Int32($0) }
        try edit("delete pages") { error in pages.withUnsafeBufferPointer { cmupdf_delete_pages(handle, $0.baseAddress, Int32($0.count), &error) } }
        return try dropReferences(toPages: Set(gone))
    }

    func movePage(from: Int, to: Int) throws {
        try edit("move a page") { cmupdf_move_page(handle, Int32(from), Int32(to), &$0) }
    }

    func rotatePage(at index: Int, to rotation: PageRotation) throws {
        try edit("rotate a page") { cmupdf_rotate_page(handle, Int32(index), Int32(rotation.degrees), &$0) }
    }

    /// Written over the PDF-object primitives (`writeTextLayers(_:)`), as for every engine.
    func addTextLayers(_ layers: [Int: TextPage]) throws {
        try writeTextLayers(layers)
    }

    /// Written over the PDF-object primitives (`writeOverlays(_:)`), as for every engine.
    func addPageOverlays(_ overlays: PageOverlays) throws {
        try writeOverlays(overlays)
    }

    /// The other PDF is opened as a document of its own, read and dropped.
    func insertPages(from data: Data, password: String?, pages: [Int], at index: Int) throws -> PageEditReport {
        let source = try MuPDFDocument(source: .memory(data), password: password, cacheBytes: DocumentLimits.defaultCacheBytes, logger: logSink.logger)
        let copy = try copyPages(pages, of: source)
        for (offset, page) in copy.pages.enumerated() {
            try edit("copy pages") { cmupdf_insert_page_object(handle, Int32(index + offset), Int32(page.number), &$0) }
        }
        return copy.report
    }

    /// Runs one page edit, then reads the page count afresh and forgets the page labels.
    private func edit(_ action: String, _ call: (inout cmupdf_error) -> Int32) throws {
        var error = cmupdf_error()
        let succeeded = call(&error) != 0
        labelRanges = nil
        var countError = cmupdf_error()
        let count = cmupdf_page_count(handle, &countError)
        if count >= 0 { pageCount = Int(count) }
        guard succeeded else { throw MuPDFErrors.translate(error, doing: action, code: .damaged) }
    }
}
