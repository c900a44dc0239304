#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Outline and link editing. The outline is edited as a whole (``setOutline(_:)``) or one
/// item at a time, by its path: the item's position among its siblings at each level from the
/// top, so `[1, 0]` is the first child of the second top-level item. Editing the outline
/// needs ``Capability/editOutline`` and the PDF's assemble permission (which ISO 32000-1
/// gives for bookmarks); links need ``Capability/editLinks`` and the annotate permission.
/// Every call checks its input first (`invalidArgument`, or `pageOutOfRange` for a
/// destination on a page the document lacks) and changes nothing when it throws.
extension Document {
    /// The most items an outline written through the API may have.
    public static let maximumOutlineItems = 100_000

    /// Replaces the document's outline with `items`; an empty list removes it.
    @discardableResult
    public func setOutline(_ items: [OutlineItem]) throws -> OutlineEditReport {
        try require(.editOutline)
        try require(.assemble, toAllow: "changing its outline")
        try checkOutline(items)
        let report = try withEngine(as: OutlineWriting.self, needing: nil) { document, _ in try document.replaceOutline(with: items) }
        markChanged()
        return report
    }

    /// Inserts `item` (with its children) so that its path becomes `path`; the last index may
    /// be the count of the siblings there, to append.
    @discardableResult
    public func insertOutlineItem(_ item: OutlineItem, at path: [Int]) throws -> OutlineEditReport {
        try editOutline { items in try OutlinePaths.insert(item, at: path, into: &items) }
    }

    /// Removes the item at `path` with its children.
    @discardableResult
    public func removeOutlineItem(at path: [Int]) throws -> OutlineEditReport {
        try editOutline { items in _ = try OutlinePaths.remove(at: path, from: &items) }
    }

    /// Moves the item at `from` (with its children) so that its path becomes `to`, read after
    /// the item has been taken out; an item cannot move below itself.
    @discardableResult
    public func moveOutlineItem(from: [Int], to: [Int]) throws -> OutlineEditReport {
        guard !(to.count > from.count && Array(to.prefix(from.count)) == from) else {
            throw RendererError(.invalidArgument, "an outline item cannot move below itself (from \(from) to \(to))", rendererID: renderer.id)
        }
        return try editOutline { items in
            let item = try OutlinePaths.remove(at: from, from: &items)
            try OutlinePaths.insert(item, at: to, into: &items)
        }
    }

    /// Changes the item at `path` as `change` says: its title, destination, colour, fonts,
    /// open state or children.
    @discardableResult
    public func updateOutlineItem(at path: [Int], _ change: (inout OutlineItem) -> Void) throws -> OutlineEditReport {
        try editOutline { items in try OutlinePaths.update(at: path, in: &items, change) }
    }

    /// Adds a link on page `index` over `link.area` (in page space) leading to
    /// `link.destination`. The link has no border; it is read back by ``links(pageAt:)``.
    public func addLink(_ link: Link, pageAt index: Int) throws {
        try requireLinkEditing()
        try checkArea(link.area)
        try checkDestination(link.destination)
        try withPage(index) { _, document in try document.capability(LinkWriting.self).addLink(link, pageAt: index) }
        markChanged()
    }

    /// Removes the links of page `index` whose area is `area` (each edge within half a point)
    /// and returns how many there were; `invalidArgument` when there is none.
    @discardableResult
    public func removeLinks(in area: PageRect, pageAt index: Int) throws -> Int {
        try requireLinkEditing()
        try checkArea(area)
        let removed = try withPage(index) { _, document in try document.capability(LinkWriting.self).removeLinks(in: area, pageAt: index) }
        guard removed > 0 else {
            throw RendererError(.invalidArgument, "page \(index + 1) has no link with the area \(area)", rendererID: renderer.id)
        }
        markChanged()
        return removed
    }

    /// Reads the outline, changes it with `body` and writes it back.
    private func editOutline(_ body: (inout [OutlineItem]) throws -> Void) throws -> OutlineEditReport {
        try require(.outline)
        var items = try outline()
        try body(&items)
        return try setOutline(items)
    }

    private func requireLinkEditing() throws {
        try require(.editLinks)
        try require(.annotate, toAllow: "changing links")
    }

    /// Checks the outline's size, depth, titles, colours and destinations.
    private func checkOutline(_ items: [OutlineItem]) throws {
        let count = OutlineItem.count(items)
        guard count <= Self.maximumOutlineItems else {
            throw RendererError(.invalidArgument, "an outline has at most \(Self.maximumOutlineItems) items, not \(count)", rendererID: renderer.id)
        }
        guard OutlineItem.depth(items) <= OutlineItem.maximumDepth else {
            throw RendererError(.invalidArgument, "an outline is at most \(OutlineItem.maximumDepth) levels deep", rendererID: renderer.id)
        }
        func check(_ items: [OutlineItem]) throws {
            for item in items {
                guard item.title.utf16.count <= 65_535 else {
                    throw RendererError(.invalidArgument, "an outline title has at most 65535 UTF-16 units", rendererID: renderer.id)
                }
                if let color = item.color, ![color.red, color.green, color.blue].allSatisfy({ (0...1).contains($0) }) {
                    throw RendererError(.invalidArgument, "an outline colour's components are 0 to 1", rendererID: renderer.id)
                }
                if let destination = item.destination { try checkDestination(destination) }
                try check(item.children)
            }
        }
        try check(items)
    }

    /// Checks that `destination` names a page of the document with finite numbers, or a URI
    /// of printable ASCII (as ISO 32000-1 has URIs) of at most 64 KiB.
    private func checkDestination(_ destination: Destination) throws {
        switch destination {
        case .uri(let uri):
            guard !uri.isEmpty, uri.utf8.count <= 65_536, uri.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw RendererError(.invalidArgument, "a link's URI is 1 to 65536 printable ASCII characters without spaces", rendererID: renderer.id)
            }
        case .page(let index, let point, let view):
            guard (0..<pageCount).contains(index) else {
                throw RendererError(
                    .pageOutOfRange, "a destination names page index \(index): the document has \(pageCount) pages (indices 0...\(pageCount - 1))",
                    rendererID: renderer.id)
            }
            let numbers = [point?.x, point?.y, view?.left, view?.top, view?.zoom, view?.rect?.minX, view?.rect?.minY, view?.rect?.maxX, view?.rect?.maxY]
            guard numbers.compactMap({ $0 }).allSatisfy({ $0.isFinite && abs($0) <= 1e6 }), (view?.zoom ?? 1) > 0 else {
                throw RendererError(.invalidArgument, "a destination's coordinates are finite (within a million points) and its zoom positive", rendererID: renderer.id)
            }
        }
    }

    private func checkArea(_ area: PageRect) throws {
        let numbers = [area.minX, area.minY, area.size.width, area.size.height]
        guard numbers.allSatisfy({ $0.isFinite && abs($0) <= 1e6 }), area.size.width > 0, area.size.height > 0 else {
            throw RendererError(.invalidArgument, "a link's area is finite, within a million points, with a positive width and height", rendererID: renderer.id)
        }
    }
}

/// Edits of an outline by path (see ``Document``'s outline editing), each throwing
/// `invalidArgument` for a path that names no item.
enum OutlinePaths {
    static func insert(_ item: OutlineItem, at path: [Int], into items: inout [OutlineItem]) throws {
        guard let position = path.last else { throw invalid(path) }
        try atLevel(Array(path.dropLast()), of: &items, path: path) { siblings in
            guard (0...siblings.count).contains(position) else { throw invalid(path) }
            siblings.insert(item, at: position)
        }
    }

    static func remove(at path: [Int], from items: inout [OutlineItem]) throws -> OutlineItem {
        guard let position = path.last else { throw invalid(path) }
        var removed: OutlineItem?
        try atLevel(Array(path.dropLast()), of: &items, path: path) { siblings in
            guard siblings.indices.contains(position) else { throw invalid(path) }
            removed = siblings.remove(at: position)
        }
        return removed!
    }

    static func update(at path: [Int], in items: inout [OutlineItem], _ change: (inout OutlineItem) -> Void) throws {
        guard let position = path.last else { throw invalid(path) }
        try atLevel(Array(path.dropLast()), of: &items, path: path) { siblings in
            guard siblings.indices.contains(position) else { throw invalid(path) }
            change(&siblings[position])
        }
    }

    /// Runs `body` on the children of the item at `parent` (the top level for an empty path).
    private static func atLevel(_ parent: [Int], of items: inout [OutlineItem], path: [Int], _ body: (inout [OutlineItem]) throws -> Void) throws {
        guard let first = parent.first else { return try body(&items) }
        guard items.indices.contains(first) else { throw invalid(path) }
        try atLevel(Array(parent.dropFirst()), of: &items[first].children, path: path, body)
    }

    private static func invalid(_ path: [Int]) -> RendererError {
        RendererError(.invalidArgument, "no outline item at path \(path)")
    }
}
