import RendererEngine

/// What an outline item's dictionary says beyond what the engines read: its colour and
/// font flags, and whether it has a target at all.
package struct OutlineItemStyle: Hashable {
    var color: Color?
    var isBold: Bool
    var isItalic: Bool
    /// Whether the item has a `/Dest` or an `/A`, whether or not the API can express it.
    var hasTarget: Bool
}

extension PDFObjectEditing where Self: OutlineReading {
    /// Replaces the document's outline with `items` (none removes it): a new `/Outlines`
    /// tree (ISO 32000-1, 12.3.3) with each item's title, target, colour, flags and
    /// `/Count` (negative for a closed item). The old tree's objects are left unreferenced.
    /// Returns the outline items of the old tree whose target the API could not express, which
    /// a kept item has no longer.
    package func replaceOutline(with items: [OutlineItem]) throws -> OutlineEditReport {
        let lost = try outlineItemsWithUnreadableTargets()
        let catalog = try catalogReference()
        guard !items.isEmpty else {
            try setEntry("Outlines", of: catalog, to: nil)
            return OutlineEditReport(targetsDropped: lost)
        }
        let root = try addObject(.null)
        let level = try writeOutlineItems(items, parent: root)
        try replaceObject(root, with: .dictionary([
            "Type": .name("Outlines"), "First": .reference(level.first), "Last": .reference(level.last), "Count": .integer(level.visible),
        ]))
        try setEntry("Outlines", of: catalog, to: .reference(root))
        return OutlineEditReport(targetsDropped: lost)
    }

    /// Writes `items` as the children of `parent`; returns the first and last, and how many
    /// items a reader shows below `parent` when it is open.
    private func writeOutlineItems(_ items: [OutlineItem], parent: PDFReference) throws -> (first: PDFReference, last: PDFReference, visible: Int) {
        let references = try items.map { _ in try addObject(.null) }
        var visible = items.count
        for (position, item) in items.enumerated() {
            var entries: [String: PDFObject] = ["Title": .text(item.title), "Parent": .reference(parent)]
            if position > 0 { entries["Prev"] = .reference(references[position - 1]) }
            if position + 1 < items.count { entries["Next"] = .reference(references[position + 1]) }
            if !item.children.isEmpty {
                let below = try writeOutlineItems(item.children, parent: references[position])
                entries["First"] = .reference(below.first)
                entries["Last"] = .reference(below.last)
                entries["Count"] = .integer(item.isOpen ? below.visible : -below.visible)
                if item.isOpen { visible += below.visible }
            }
            if let destination = item.destination {
                let target = try target(destination)
                entries[target.key] = target.value
            }
            if let color = item.color {
                entries["C"] = .array([color.red, color.green, color.blue].map { PDFObject.number(min(max($0, 0), 1)) })
            }
            let flags = (item.isItalic ? 1 : 0) | (item.isBold ? 2 : 0)
            if flags != 0 { entries["F"] = .integer(flags) }
            try replaceObject(references[position], with: .dictionary(entries))
        }
        return (references[0], references[references.count - 1], visible)
    }

    /// `items` (an engine's reading of the outline) with the colours and flags of their
    /// dictionaries. These are read by a walk of the `/Outlines` tree of its own; when that
    /// walk and the engine's disagree on the tree's shape (a damaged outline each engine mends
    /// its own way), or the tree cannot be read, `items` are returned as they are.
    package func styled(_ items: [OutlineItem]) -> [OutlineItem] {
        guard let styles = styles(matching: items) else { return items }
        var remaining = styles[...]
        func apply(_ items: [OutlineItem]) -> [OutlineItem] {
            items.map { item in
                var item = item
                let style = remaining.removeFirst()
                item.color = style.color
                item.isBold = style.isBold
                item.isItalic = style.isItalic
                item.children = apply(item.children)
                return item
            }
        }
        return apply(items)
    }

    /// How many items of the outline have a target that the engine's reading leaves nil.
    private func outlineItemsWithUnreadableTargets() throws -> Int {
        let items = try outline()
        guard let styles = styles(matching: items) else { return 0 }
        func targets(_ items: [OutlineItem]) -> [Bool] { items.flatMap { [$0.destination != nil] + targets($0.children) } }
        return zip(styles, targets(items)).filter { $0.0.hasTarget && !$0.1 }.count
    }

    /// The style of each of `items` and their children, in the order the outline lists them;
    /// nil when the `/Outlines` tree cannot be read or its shape is not that of `items`.
    private func styles(matching items: [OutlineItem]) -> [OutlineItemStyle]? {
        guard let styles = try? outlineStyles(), styles.map(\.depth) == Self.preorderDepths(items) else { return nil }
        return styles.map(\.style)
    }

    /// Each item's depth (0 at the top), in the order the outline lists them.
    private static func preorderDepths(_ items: [OutlineItem], depth: Int = 0) -> [Int] {
        items.flatMap { [depth] + preorderDepths($0.children, depth: depth + 1) }
    }

    /// The style of each item of the `/Outlines` tree with its depth, in order: siblings by
    /// `/Next`, children by `/First`, an item met twice ending its list, and nothing below
    /// ``OutlineItem/maximumDepth``.
    private func outlineStyles() throws -> [(depth: Int, style: OutlineItemStyle)] {
        let catalog = try object(try catalogReference().number)
        let outlines = try resolved(catalog["Outlines"])
        var seen = Set<Int>()
        var styles: [(depth: Int, style: OutlineItemStyle)] = []
        func walk(_ first: PDFObject?, depth: Int) throws {
            var next = first
            while depth < OutlineItem.maximumDepth, case .reference(let reference)? = next, seen.insert(reference.number).inserted {
                let item = try object(reference.number)
                let flags = item["F"]?.wholeNumber ?? 0
                let components = try resolved(item["C"]).items.compactMap(\.number)
                styles.append((depth, OutlineItemStyle(
                    color: components.count == 3 ? Color(pdfComponents: components) : nil, isBold: flags & 2 != 0, isItalic: flags & 1 != 0,
                    hasTarget: item["Dest"] != nil || item["A"] != nil)))
                try walk(item["First"], depth: depth + 1)
                next = item["Next"]
            }
        }
        try walk(outlines["First"], depth: 0)
        return styles
    }
}
