import EngineSupport
import Foundation
import RendererEngine

/// Page editing, written over the PDF-object primitives (EngineSupport's
/// `PDFObjectEditing+Pages`): Poppler's core API has no call that edits the page tree, and its
/// catalog reads the tree and the pages once. So each edit is made in the core twin's objects,
/// and the core twin is then opened again from its own bytes (the document with the edit as an
/// incremental update), the glib twin after it; an edit that fails midway leaves the twins as
/// they were before it.
extension PopplerDocument {
    func insertBlankPage(at index: Int, size: PageSize) throws {
        try editingStructure { pages in try attachPage(try addBlankPage(size: size), at: index, among: pages) }
    }

    func deletePages(_ indices: [Int]) throws -> PageEditReport {
        try editingStructure { pages in
            let gone = indices.map { pages[$0] }
            for page in gone { try detachPage(page) }
            return try dropReferences(toPages: Set(gone.map(\.number)))
        }
    }

    func movePage(from: Int, to: Int) throws {
        try editingStructure { pages in
            var others = pages
            let page = others.remove(at: from)
            try detachPage(page)
            try attachPage(page, at: to, among: others)
        }
    }

    func rotatePage(at index: Int, to rotation: PageRotation) throws {
        try editingStructure { pages in try setRotation(of: pages[index], to: rotation.degrees) }
    }

    func addTextLayers(_ layers: [Int: TextPage]) throws {
        try editingStructure { _ in try writeTextLayers(layers) }
    }

    func addPageOverlays(_ overlays: PageOverlays) throws {
        try editingStructure { _ in try writeOverlays(overlays) }
    }

    /// Copies the pages over the primitives of both documents (`copyPages(_:of:)`), the
    /// other opened through Poppler's core API alone, then puts the copies in the tree.
    func insertPages(from data: Data, password: String?, pages: [Int], at index: Int) throws -> PageEditReport {
        guard let source = logging({ PopplerCoreDocument(source: .memory(data), absolutePath: nil, password: password) }) else {
            throw RendererError(.damaged, "Poppler cannot open the document to copy pages from", rendererID: rendererID)
        }
        return try editingStructure { existing in
            let copy = try logging { try copyPages(pages, of: source) }
            var tree = existing
            for (offset, page) in copy.pages.enumerated() {
                try attachPage(page, at: index + offset, among: tree)
                tree.insert(page, at: index + offset)
            }
            return copy.report
        }
    }

    /// Runs `edit` on the page tree's pages (as the objects hold them, which must be the pages
    /// Poppler reads), then opens the core twin again from its bytes; when `edit` fails, from
    /// the bytes it had before. For edits of what Poppler's catalog keeps once read: the page
    /// tree, the pages, the form.
    func editingStructure<T>(_ edit: ([PDFReference]) throws -> T) throws -> T {
        let before = try core.serialized()
        let pages = try pageReferences()
        guard pages.count == pageCount else {
            throw RendererError(
                .damaged, "the page tree holds \(pages.count) pages where Poppler reads \(pageCount); it is not edited", rendererID: rendererID)
        }
        let result: T
        do {
            result = try edit(pages)
        } catch {
            try reopenCore(from: before)
            throw error
        }
        try reopenCore(from: try core.serialized())
        return result
    }
}
