#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Page editing through a session: each needs the ``SessionFeature/editing`` setting (and
/// what ``Document``'s page editing needs), then the reader's bookmarks and current page
/// follow their pages, and the host is told: `bookmarksChanged` when a bookmark moved or went
/// with its page, `currentPageChanged` when the current page's index changed, then
/// `pagesChanged`. Annotations keep their pages; identities made from positions (see
/// ``Annotation/id``) are read afresh after `pagesChanged`.
extension ReadingSession {
    /// Inserts an empty page as ``Document/insertBlankPage(at:size:)`` does.
    public func insertBlankPage(at index: Int, size: PageSize) throws {
        try editingPages { document in
            try document.insertBlankPage(at: index, size: size)
            return (PageEditReport(), { $0 < index ? $0 : $0 + 1 }, .insertedBlankPage(index: index, size: size))
        }
    }

    /// Deletes pages as ``Document/deletePages(_:)`` does; bookmarks on them go too.
    @discardableResult
    public func deletePages(_ indices: [Int]) throws -> PageEditReport {
        try editingPages { document in
            let deleted = Set(indices)
            let before = try document.pdfData()
            let report = try document.deletePages(indices)
            return (report, { page in deleted.contains(page) ? nil : page - deleted.filter { $0 < page }.count }, .deletedPages(deleted.sorted(), before: before))
        }
    }

    /// Moves a page as ``Document/movePage(from:to:)`` does.
    public func movePage(from: Int, to: Int) throws {
        try editingPages { document in
            try document.movePage(from: from, to: to)
            return (PageEditReport(), { page in
                if page == from { return to }
                if from < to, (from + 1...to).contains(page) { return page - 1 }
                if to < from, (to..<from).contains(page) { return page + 1 }
                return page
            }, .movedPage(from: from, to: to))
        }
    }

    /// Writes invisible text over pages as ``Document/addTextLayers(_:)`` does; pages keep
    /// their places, and the edit cannot be undone.
    public func addTextLayers(_ layers: [Int: TextPage]) throws {
        _ = try editingPages { document in
            try document.addTextLayers(layers)
            return (PageEditReport(), { $0 }, nil)
        }
    }

    /// Lays drawings onto pages as ``Document/addPageOverlays(_:)`` does; pages keep their
    /// places, and the edit cannot be undone.
    public func addPageOverlays(_ overlays: PageOverlays) throws {
        _ = try editingPages { document in
            try document.addPageOverlays(overlays)
            return (PageEditReport(), { $0 }, nil)
        }
    }

    /// Sets a page's rotation as ``Document/rotatePage(at:to:)`` does.
    public func rotatePage(at index: Int, to rotation: PageRotation) throws {
        try editingPages { document in
            let before = try document.pageInfo(pageAt: index).rotation
            try document.rotatePage(at: index, to: rotation)
            return (PageEditReport(), { $0 }, .rotatedPage(index: index, before: before, after: try document.pageInfo(pageAt: index).rotation))
        }
    }

    /// Turns a page from the rotation it has as ``Document/rotatePage(at:by:)`` does.
    public func rotatePage(at index: Int, by degrees: Int) throws {
        try editingPages { document in
            let before = try document.pageInfo(pageAt: index).rotation
            try document.rotatePage(at: index, by: degrees)
            return (PageEditReport(), { $0 }, .rotatedPage(index: index, before: before, after: try document.pageInfo(pageAt: index).rotation))
        }
    }

    /// Copies pages of another PDF in as ``Document/insertPages(from:password:pages:at:)`` does.
    @discardableResult
    public func insertPages(from source: DocumentSource, password: String? = nil, pages: [Int]? = nil, at index: Int? = nil) throws -> PageEditReport {
        try editingPages { document in
            let before = document.pageCount
            let at = index ?? before
            let report = try document.insertPages(from: source, password: password, pages: pages, at: at)
            let added = document.pageCount - before
            return (report, { $0 < at ? $0 : $0 + added }, nil)
        }
    }

    /// Writes pages into a new PDF as ``Document/extractPages(_:to:)-(_,String)`` does, leaving this
    /// document, its bookmarks and current page as they are. Needs the
    /// ``SessionFeature/saveTo`` setting.
    @discardableResult
    public func extractPages(_ indices: [Int], to path: String) throws -> PageEditReport {
        try withPermitted([.saveTo]) { document, _ in try document.extractPages(indices, to: path) }
    }

    /// Runs a page edit that returns its report, where each old page index went (nil: the
    /// page is gone) and the edit ``undo()`` takes back (nil: one it cannot, after which
    /// every edit is forgotten), then moves the bookmarks and current page and tells the host.
    @discardableResult
    private func editingPages(_ edit: (Document) throws -> (PageEditReport, (Int) -> Int?, SessionEdit?)) throws -> PageEditReport {
        try withPermitted([.editing]) { document, state in
            let (report, newIndex, undoable) = try edit(document)
            if let undoable { recorded(undoable, in: state) } else { forgetEdits(in: state) }
            let count = document.pageCount
            var bookmarks = state.bookmarks.compactMap { bookmark -> Bookmark? in
                guard let page = newIndex(bookmark.pageIndex) else { return nil }
                var moved = bookmark
                moved.pageIndex = page
                return moved
            }
            bookmarks.sortByPage()
            if bookmarks != state.bookmarks {
                state.bookmarks = bookmarks
                emit(.bookmarksChanged(bookmarks), in: state)
            }
            let old = state.viewing.pageIndex
            let kept = (0..<old).filter { newIndex($0) != nil }.count
            let current = newIndex(old) ?? min(kept, count - 1)
            if current != old {
                state.viewing.pageIndex = current
                emit(.currentPageChanged(from: old, to: current), in: state)
            }
            emit(.pagesChanged(pageCount: count), in: state)
            return report
        }
    }
}
