/// The outline and links, edited through the session: under the ``SessionFeature/editing``
/// setting and the PDF's permissions (as ``Document``'s outline and link editing says), each
/// change told as ``SessionEvent/outlineChanged(_:)`` or ``SessionEvent/linksChanged(pageIndex:_:)``
/// and kept for ``ReadingSession/undo()``. Undoing an outline edit writes the outline as it was
/// read, so a target the API cannot express stays lost (``OutlineEditReport``).
extension ReadingSession {
    /// Replaces the outline as ``Document/setOutline(_:)`` does.
    @discardableResult
    public func setOutline(_ items: [OutlineItem]) throws -> OutlineEditReport {
        try editOutline { try $0.setOutline(items) }
    }

    /// Inserts an outline item as ``Document/insertOutlineItem(_:at:)`` does.
    @discardableResult
    public func insertOutlineItem(_ item: OutlineItem, at path: [Int]) throws -> OutlineEditReport {
        try editOutline { try $0.insertOutlineItem(item, at: path) }
    }

    /// Removes an outline item as ``Document/removeOutlineItem(at:)`` does.
    @discardableResult
    public func removeOutlineItem(at path: [Int]) throws -> OutlineEditReport {
        try editOutline { try $0.removeOutlineItem(at: path) }
    }

    /// Moves an outline item as ``Document/moveOutlineItem(from:to:)`` does.
    @discardableResult
    public func moveOutlineItem(from: [Int], to: [Int]) throws -> OutlineEditReport {
        try editOutline { try $0.moveOutlineItem(from: from, to: to) }
    }

    /// Changes an outline item as ``Document/updateOutlineItem(at:_:)`` does.
    @discardableResult
    public func updateOutlineItem(at path: [Int], _ change: (inout OutlineItem) -> Void) throws -> OutlineEditReport {
        try editOutline { try $0.updateOutlineItem(at: path, change) }
    }

    /// Adds a link as ``Document/addLink(_:pageAt:)`` does.
    public func addLink(_ link: Link, pageAt index: Int) throws {
        try withPermitted([.editing]) { document, state in
            try document.addLink(link, pageAt: index)
            emit(.linksChanged(pageIndex: index, try document.links(pageAt: index)), in: state)
            recorded(.addedLinks([link], pageIndex: index), in: state)
        }
    }

    /// Removes links as ``Document/removeLinks(in:pageAt:)`` does.
    @discardableResult
    public func removeLinks(in area: PageRect, pageAt index: Int) throws -> Int {
        try withPermitted([.editing]) { document, state in
            var gone = try document.links(pageAt: index)
            let removed = try document.removeLinks(in: area, pageAt: index)
            let links = try document.links(pageAt: index)
            for link in links { if let position = gone.firstIndex(of: link) { gone.remove(at: position) } }
            emit(.linksChanged(pageIndex: index, links), in: state)
            recorded(.removedLinks(gone, pageIndex: index), in: state)
            return removed
        }
    }

    private func editOutline(_ body: (Document) throws -> OutlineEditReport) throws -> OutlineEditReport {
        try withPermitted([.editing]) { document, state in
            let before = try document.outline()
            let report = try body(document)
            let after = try document.outline()
            emit(.outlineChanged(after), in: state)
            recorded(.changedOutline(before: before, after: after), in: state)
            return report
        }
    }
}
