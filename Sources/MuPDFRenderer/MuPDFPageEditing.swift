import CMuPDF
import EngineSupport
import Foundation
import RendererEngine

extension MuPDFDocument {
    func insertBlankPage(at index: Int, size: PageSize) throws {
        try edit("insert a page") { cmupdf_insert_blank_page(handle, Int32(index), Float(size.width), Float(size.height), &$0) }
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

    func insertPages(from data: Data, password: String?, pages: [Int], at index: Int) throws -> PageEditReport {
        var report = cmupdf_page_report()
        let chosen = pages.map { Int32($0) }
        try edit("copy pages") { error in
            data.withUnsafeBytes { bytes in
                chosen.withUnsafeBufferPointer { pages in
                    cmupdf_insert_pages(
                        handle, Int32(index), bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, password, pages.baseAddress, Int32(pages.count),
                        &report, &error)
                }
            }
        }
        return PageEditReport(report)
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

extension PageEditReport {
    init(_ report: cmupdf_page_report) {
        self.init(links: Int(report.links), outlineItems: Int(report.outline_items), formFields: Int(report.fields))
    }
}
