import EngineSupport
import Foundation
import RendererEngine

/// Page editing, written over the PDF-object primitives (EngineSupport's
/// `PDFObjectEditing+Pages`): Poppler's core API has no call that edits the page tree, and its
/// catalog reads the tree and the pages once. So each edit is made in the core twin's objects,
/// and the core twin is then opened again from its own bytes (the document with the edit as an
/// incremental update), the glib twin after it; an edit that fails midway leaves the twins as
/// they were before it. Copying pages from another PDF is not offered (`mergePages`).
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
