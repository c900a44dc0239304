#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Page editing: blank pages, deletion, moves, rotation, pages copied from another PDF
/// (merge) and pages extracted into a new one (split). Each needs ``Capability/editPages``
/// (merging ``Capability/mergePages``) and the PDF's assemble permission, checks its indices first (`pageOutOfRange`, or
/// `invalidArgument` for a request that makes no sense) and changes nothing when it throws.
///
/// Destinations (outline items, links, named destinations) name page objects, so pages that
/// move keep everything that points to them. What would point to a page no longer in the
/// document, or to a page of another PDF that was not copied, is dropped and counted in the
/// ``PageEditReport`` the call returns. Changes are saved as other changes are: atomically,
/// incrementally where the file allows (so a deleted page's objects stay in the file's
/// earlier revision until a `rewrite` save).
extension Document {
    /// The largest page side PDF readers accept, in points (ISO 32000-1, annex C).
    public static let maximumPageSide = 14_400.0

    /// Inserts an empty page of `size` points before page `index` (``pageCount``: at the end).
    public func insertBlankPage(at index: Int, size: PageSize) throws {
        try requirePageEditing()
        try check(index, in: 0...pageCount, "insert at")
        guard size.width >= 1, size.height >= 1, size.width <= Self.maximumPageSide, size.height <= Self.maximumPageSide else {
            throw RendererError(
                .invalidArgument, "a page is 1 to \(Int(Self.maximumPageSide)) points a side, not \(size.width) × \(size.height)", rendererID: renderer.id)
        }
        try editPages(as: PageEditing.self) { try $0.insertBlankPage(at: index, size: size) }
    }

    /// Deletes the pages at `indices` (in any order; repeats count once). A document keeps
    /// at least one page: deleting them all is `invalidArgument`.
    @discardableResult
    public func deletePages(_ indices: [Int]) throws -> PageEditReport {
        try requirePageEditing()
        let count = pageCount
        let pages = Array(Set(indices)).sorted()
        for index in pages { try check(index, in: 0...(count - 1), "delete") }
        guard !pages.isEmpty else { return PageEditReport() }
        guard pages.count < count else {
            throw RendererError(.invalidArgument, "a document keeps at least one page; it has \(count), all named for deletion", rendererID: renderer.id)
        }
        return try editPages(as: PageEditing.self) { try $0.deletePages(pages) }
    }

    /// Moves page `from` so that it becomes page `to`.
    public func movePage(from: Int, to: Int) throws {
        try requirePageEditing()
        try check(from, in: 0...(pageCount - 1), "move")
        try check(to, in: 0...(pageCount - 1), "move to")
        guard from != to else { return }
        try editPages(as: PageEditing.self) { try $0.movePage(from: from, to: to) }
    }

    /// Sets page `index`'s rotation (its `/Rotate`).
    public func rotatePage(at index: Int, to rotation: PageRotation) throws {
        try requirePageEditing()
        try check(index, in: 0...(pageCount - 1), "rotate")
        try editPages(as: PageEditing.self) { try $0.rotatePage(at: index, to: rotation) }
    }

    /// Writes each page's words (`layers`, by page index) over it as invisible text, each
    /// word placed on its box, so that the page's text can be found, selected and copied
    /// where its image shows it: a scanned page made searchable with the words
    /// ``recognizeText(pageAt:with:cancellation:)`` found. The page's own content, its
    /// images among it, stays as it was. Needs `Capability.editPages` and the PDF's modify
    /// permission.
    public func addTextLayers(_ layers: [Int: TextPage]) throws {
        try require(.editPages)
        try require(.modify, toAllow: "changes")
        for index in layers.keys { try check(index, in: 0...(pageCount - 1), "write text on") }
        guard !layers.isEmpty else { return }
        try editPages(as: PageEditing.self) { try $0.addTextLayers(layers) }
    }

    /// Lays each overlay onto its page: a drawing in embedded fonts over or behind the
    /// page's content, or shown by a watermark annotation; what `RendererStamps`' text stamps
    /// are written as. The page's own content stays as it was. Needs `Capability.editPages`
    /// and the PDF's modify permission; a page out of range or an opacity outside 0 to 1 is
    /// refused before anything changes.
    public func addPageOverlays(_ overlays: PageOverlays) throws {
        try require(.editPages)
        try require(.modify, toAllow: "changes")
        for overlay in overlays.overlays {
            try check(overlay.pageIndex, in: 0...(pageCount - 1), "draw on")
            guard (0...1).contains(overlay.opacity) else {
                throw RendererError(.invalidArgument, "an opacity is 0 to 1, not \(overlay.opacity)", rendererID: renderer.id)
            }
        }
        guard !overlays.overlays.isEmpty else { return }
        try editPages(as: PageEditing.self) { try $0.addPageOverlays(overlays) }
    }

    /// Turns page `index` by `degrees` (a multiple of 90; negative turns anticlockwise) from
    /// the rotation it has.
    public func rotatePage(at index: Int, by degrees: Int) throws {
        guard degrees % 90 == 0 else { throw RendererError(.invalidArgument, "pages turn by multiples of 90 degrees, not \(degrees)", rendererID: renderer.id) }
        let current = try pageInfo(pageAt: index).rotation.degrees
        try rotatePage(at: index, to: PageRotation(degrees: current + degrees) ?? .none)
    }

    /// Copies pages of the PDF `source` (opened with `password`) before page `index` (nil:
    /// at the end): `pages`, in that order (nil: every page). Their annotations come with
    /// them, links among the copied pages re-pointed at the copies; form widgets do not
    /// (their fields belong to the other form). The source's outline items that go to copied
    /// pages are added at the end of this document's outline, in the source's tree. Links and
    /// items into pages not copied are dropped and counted. The source is read, never
    /// written; one that cannot be opened gives the error opening it would (`damaged`,
    /// `wrongPassword` and so on), one whose permissions forbid copying is `unsupported`
    /// (the owner password allows it), and nothing changes.
    @discardableResult
    public func insertPages(from source: DocumentSource, password: String? = nil, pages: [Int]? = nil, at index: Int? = nil) throws -> PageEditReport {
        try requirePageEditing(.mergePages)
        let at = index ?? pageCount
        try check(at, in: 0...pageCount, "insert at")
        let renderer = self.renderer
        let type = try source.sniffContentType()
        guard type == .pdf else {
            throw RendererError(.unsupported, "\(source.displayName) is \(type), not a PDF: only PDF pages are copied", rendererID: renderer.id)
        }
        let donor = try Self.translatingErrors(of: renderer) {
            try Self.surfacingStreamFailure(of: source) { try renderer.openDocument(source, password: password, limits: limits) }
        }
        guard try donor.capability(MetadataReading.self, rendererID: renderer.id).info().permissions.contains(.copy) else {
            throw RendererError(.notPermitted, "\(source.displayName) does not permit copying its content; open it with the owner password", rendererID: renderer.id)
        }
        let chosen = pages ?? Array(0..<donor.pageCount)
        for page in chosen {
            guard (0..<donor.pageCount).contains(page) else {
                throw RendererError(
                    .pageOutOfRange, "page index \(page) is not in \(source.displayName), which has \(donor.pageCount) pages", rendererID: renderer.id)
            }
        }
        guard !chosen.isEmpty else { return PageEditReport() }
        let data = try source.data()
        return try editPages(as: PageMerging.self) { try $0.insertPages(from: data, password: password, pages: chosen, at: at) }
    }

    /// Writes pages into a new PDF in the local file `url` names, as
    /// ``extractPages(_:to:)-(_,String)`` does; `invalidArgument` for a URL that is not a
    /// file URL.
    @discardableResult
    public func extractPages(_ indices: [Int], to url: URL) throws -> PageEditReport {
        try extractPages(indices, to: url.localFilePath())
    }

    /// Writes pages `indices` of this document, in that order, with its changes, into a new
    /// PDF at `path` (atomically, as a `rewrite` save: nothing of the other pages is in it),
    /// and leaves this document as it is. The new PDF keeps the metadata, encryption, form
    /// fields on kept pages and the outline items, links and named destinations into kept
    /// pages; the others are dropped and counted. A page may be named once.
    @discardableResult
    public func extractPages(_ indices: [Int], to path: String) throws -> PageEditReport {
        try requirePageEditing()
        let count = pageCount
        for index in indices { try check(index, in: 0...(count - 1), "extract") }
        guard !indices.isEmpty, Set(indices).count == indices.count else {
            throw RendererError(.invalidArgument, "name each page to extract once, and at least one", rendererID: renderer.id)
        }
        let output = URL(fileURLWithPath: path)
        let scratch = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).\(UUID().uuidString).pdf").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try saveCopy(to: scratch, mode: .rewrite)
        let part = try Document(renderer: renderer, source: .file(scratch), password: password, limits: limits)
        let kept = Set(indices)
        let report = try part.deletePages((0..<count).filter { !kept.contains($0) })
        var order = indices.sorted()
        for (target, original) in indices.enumerated() {
            guard let from = order.firstIndex(of: original), from != target else { continue }
            try part.movePage(from: from, to: target)
            order.insert(order.remove(at: from), at: target)
        }
        try part.save(to: path, mode: .rewrite)
        return report
    }

    private func requirePageEditing(_ capability: Capability = .editPages) throws {
        try require(capability)
        try require(.assemble, toAllow: "changing its pages")
    }

    private func check(_ index: Int, in range: ClosedRange<Int>, _ what: String) throws {
        guard range.contains(index) else {
            throw RendererError(
                .pageOutOfRange, "cannot \(what) page index \(index): the document has \(pageCount) pages (indices \(range.lowerBound)...\(range.upperBound))",
                rendererID: renderer.id)
        }
    }

    private func editPages<Conformance, T: Sendable>(as type: Conformance.Type, _ body: (Conformance) throws -> T) throws -> T {
        let result = try withEngine(as: type, needing: nil) { document, _ in try body(document) }
        markChanged()
        return result
    }
}
