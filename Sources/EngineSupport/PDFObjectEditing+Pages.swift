import RendererEngine

/// Where a value of the document lives, so that it can be read and written back: an
/// indirect object, or an entry of a dictionary that lives somewhere (the catalog's direct
/// `/AcroForm`, a page's direct `/Annots`).
package indirect enum PDFPlace {
    case object(PDFReference)
    case entry(String, of: PDFPlace)
}

/// The page tree and what points into it, edited over the PDF-object primitives (ISO 32000-1,
/// 7.7.3): pages taken out of and put into the tree with every ancestor's `/Count` kept, a
/// page's `/Rotate`, and, after pages were deleted, what pointed to them dropped and counted.
/// Poppler's pages are edited by these alone; MuPDF edits its page tree with its own calls and
/// drops what pointed to deleted pages with ``dropReferences(toPages:)``. Every walk is
/// bounded (each object once, a depth limit), so a damaged file ends as `damaged`, never as a
/// loop.
extension PDFObjectEditing {
    // MARK: The page tree

    /// Takes `page` out of its parent's `/Kids` and lowers the `/Count` of every node above it
    /// by one. The page object stays, unreferenced by the tree.
    package func detachPage(_ page: PDFReference) throws {
        let parent = try parentNode(of: page)
        let kidsPlace = try place(of: "Kids", in: .object(parent))
        var kids = try value(at: kidsPlace).items
        guard let position = kids.firstIndex(where: { $0.referenceNumber == page.number }) else {
            throw damaged("page object \(page.number) is not among its parent's kids")
        }
        kids.remove(at: position)
        try write(.array(kids), at: kidsPlace)
        try addToCounts(from: parent, -1)
    }

    /// Puts `page`, which no node holds, into the tree at `index` of `pages` (the tree's pages
    /// in order, without it): before the page now at `index`, or after the last one; its
    /// `/Parent` is set and every node above it counts it.
    package func attachPage(_ page: PDFReference, at index: Int, among pages: [PDFReference]) throws {
        let parent: PDFReference
        if pages.isEmpty {
            guard case .reference(let root)? = try object(try catalogReference().number)["Pages"] else {
                throw damaged("the catalog has no page tree")
            }
            parent = root
            let kidsPlace = try place(of: "Kids", in: .object(parent))
            try write(.array(try value(at: kidsPlace).items + [.reference(page)]), at: kidsPlace)
        } else {
            let anchor = pages[min(index, pages.count - 1)]
            parent = try parentNode(of: anchor)
            let kidsPlace = try place(of: "Kids", in: .object(parent))
            var kids = try value(at: kidsPlace).items
            guard let position = kids.firstIndex(where: { $0.referenceNumber == anchor.number }) else {
                throw damaged("page object \(anchor.number) is not among its parent's kids")
            }
            kids.insert(.reference(page), at: index < pages.count ? position : position + 1)
            try write(.array(kids), at: kidsPlace)
        }
        try setEntry("Parent", of: page, to: .reference(parent))
        try addToCounts(from: parent, 1)
    }

    /// A new page of `size` points with no contents and empty resources, in no tree yet.
    package func addBlankPage(size: PageSize) throws -> PDFReference {
        try addObject(.dictionary([
            "Type": .name("Page"),
            "MediaBox": .array([.integer(0), .integer(0), .number(size.width), .number(size.height)]),
            "Resources": .dictionary([:]),
        ]))
    }

    /// Sets `page`'s `/Rotate` to `degrees`, over any it inherits.
    package func setRotation(of page: PDFReference, to degrees: Int) throws {
        try setEntry("Rotate", of: page, to: .integer(degrees))
    }

    /// The node whose `/Kids` hold `node`.
    private func parentNode(of node: PDFReference) throws -> PDFReference {
        guard case .reference(let parent)? = try object(node.number)["Parent"] else {
            throw damaged("page object \(node.number) names no parent node")
        }
        return parent
    }

    /// Adds `delta` to the `/Count` of `node` and of every node above it.
    private func addToCounts(from node: PDFReference, _ delta: Int) throws {
        var current: PDFReference? = node
        var seen: Set<Int> = []
        while let node = current {
            guard seen.count < Self.treeDepthLimit, seen.insert(node.number).inserted else {
                throw damaged("the page tree's parents go round or nest deeper than \(Self.treeDepthLimit) levels")
            }
            let dictionary = try object(node.number)
            let count = try resolved(dictionary["Count"]).wholeNumber ?? 0
            try setEntry("Count", of: node, to: .integer(max(0, count + delta)))
            if case .reference(let parent)? = dictionary["Parent"] { current = parent } else { current = nil }
        }
    }

    // MARK: What pointed to deleted pages

    /// Drops what points to a page of `gone` (object numbers of pages no longer in the tree)
    /// and counts it: the link annotations of the pages left that go there, outline items
    /// that go there (an item with children keeps them and loses its target), the open
    /// action, form fields whose widgets were all on those pages, and named destinations.
    /// Destinations by name are followed to the page they name.
    package func dropReferences(toPages gone: Set<Int>) throws -> PageEditReport {
        guard !gone.isEmpty else { return PageEditReport() }
        let catalog = try catalogReference()
        let named = try namedDestinations()
        var report = PageEditReport()
        let goesToGone = { (item: PDFObject) throws -> Bool in
            guard let page = try self.destinationPage(of: item, named: named) else { return false }
            return gone.contains(page)
        }
        for page in try pageReferences() {
            let annotsPlace = try place(of: "Annots", in: .object(page))
            let annots = try value(at: annotsPlace).items
            let kept = try annots.filter { annotation in
                let dictionary = try resolved(annotation)
                guard dictionary["Subtype"] == .name("Link") else { return true }
                return try !goesToGone(dictionary)
            }
            guard kept.count < annots.count else { continue }
            report.links += annots.count - kept.count
            try write(.array(kept), at: annotsPlace)
        }
        let root = try object(catalog.number)
        if case .reference(let outlines)? = root["Outlines"] {
            var seen: Set<Int> = []
            report.outlineItems = try dropOutlineItems(under: outlines, if: goesToGone, depth: 0, seen: &seen)
        }
        // The open action: an explicit destination, or a GoTo action's (its /D).
        if let page = try destinationPage(try resolved(root["OpenAction"])), gone.contains(page) {
            try setEntry("OpenAction", of: catalog, to: nil)
            report.links += 1
        }
        var seenFields: Set<Int> = []
        let fields = try place(of: "Fields", in: try place(of: "AcroForm", in: .object(catalog)))
        report.formFields = try dropFields(in: fields, onPages: gone, depth: 0, seen: &seenFields)
        report.namedDestinations = try dropNamedDestinations(toPages: gone, catalog: catalog)
        return report
    }

    /// Removes the outline items below `parent` that go to a deleted page (`goesToGone`);
    /// one with children keeps them, without a target. Returns how many lost their target.
    private func dropOutlineItems(
        under parent: PDFReference, if goesToGone: (PDFObject) throws -> Bool, depth: Int, seen: inout Set<Int>
    ) throws -> Int {
        guard depth <= Self.treeDepthLimit else { return 0 }
        var dropped = 0
        var next = try object(parent.number)["First"]
        while case .reference(let item)? = next, seen.count < Self.outlineItemLimit, seen.insert(item.number).inserted {
            next = try object(item.number)["Next"]
            dropped += try dropOutlineItems(under: item, if: goesToGone, depth: depth + 1, seen: &seen)
            let dictionary = try object(item.number)
            guard try goesToGone(dictionary) else { continue }
            dropped += 1
            try setEntry("Dest", of: item, to: nil)
            try setEntry("A", of: item, to: nil)
            guard dictionary["First"] == nil else { continue }
            try unlink(item, dictionary, from: parent)
            let count = try resolved(try object(parent.number)["Count"]).wholeNumber ?? 0
            if count != 0 { try setEntry("Count", of: parent, to: .integer(count > 0 ? count - 1 : count + 1)) }
        }
        if try object(parent.number)["First"] == nil { try setEntry("Last", of: parent, to: nil) }
        return dropped
    }

    /// Takes outline item `item` (its dictionary `entries`) out of `parent`'s children.
    private func unlink(_ item: PDFReference, _ entries: PDFObject, from parent: PDFReference) throws {
        let (previous, next) = (entries["Prev"]?.asReference, entries["Next"]?.asReference)
        try setEntry(previous == nil ? "First" : "Next", of: previous ?? parent, to: next.map(PDFObject.reference))
        try setEntry(next == nil ? "Last" : "Prev", of: next ?? parent, to: previous.map(PDFObject.reference))
    }

    /// Removes, from the fields in the array at `kidsPlace`, the widgets on a page of `gone`
    /// (their `/P`) and the fields left with none. Returns how many named fields went.
    private func dropFields(in kidsPlace: PDFPlace, onPages gone: Set<Int>, depth: Int, seen: inout Set<Int>) throws -> Int {
        guard depth <= Self.treeDepthLimit else { return 0 }
        var kids = try value(at: kidsPlace).items
        var dropped = 0
        var changed = false
        for position in kids.indices.reversed() {
            guard case .reference(let field) = kids[position], seen.insert(field.number).inserted else { continue }
            let dictionary = try object(field.number)
            let childrenPlace = try place(of: "Kids", in: .object(field))
            let children = try value(at: childrenPlace).items
            let remove: Bool
            if !children.isEmpty {
                // Kids without a name are the field's widgets: the field is terminal.
                let terminal = try resolved(children[0])["T"] == nil
                dropped += try dropFields(in: childrenPlace, onPages: gone, depth: depth + 1, seen: &seen)
                remove = try value(at: childrenPlace).items.isEmpty
                if remove && terminal { dropped += 1 }
            } else {
                remove = dictionary["P"]?.asReference.map { gone.contains($0.number) } ?? false
                if remove && dictionary["T"] != nil { dropped += 1 }
            }
            if remove {
                kids.remove(at: position)
                changed = true
            }
        }
        if changed { try write(.array(kids), at: kidsPlace) }
        return dropped
    }

    /// Removes the named destinations, of the catalog's `/Dests` and of its `/Names` `/Dests`
    /// tree, that go to a page of `gone`; returns how many.
    private func dropNamedDestinations(toPages gone: Set<Int>, catalog: PDFReference) throws -> Int {
        var dropped = 0
        let destsPlace = try place(of: "Dests", in: .object(catalog))
        if case .dictionary(var entries) = try value(at: destsPlace) {
            for (name, destination) in entries {
                guard let page = try destinationPage(try resolved(destination)), gone.contains(page) else { continue }
                entries[name] = nil
                dropped += 1
            }
            if dropped > 0 { try write(.dictionary(entries), at: destsPlace) }
        }
        var seen: Set<Int> = []
        let tree = try place(of: "Dests", in: try place(of: "Names", in: .object(catalog)))
        return dropped + (try dropNames(in: tree, toPages: gone, depth: 0, seen: &seen))
    }

    /// Removes the pairs of the name tree node at `node` (and its kids) whose destination
    /// goes to a page of `gone`; returns how many.
    private func dropNames(in node: PDFPlace, toPages gone: Set<Int>, depth: Int, seen: inout Set<Int>) throws -> Int {
        guard depth <= Self.treeDepthLimit else { return 0 }
        if case .object(let reference) = node, !seen.insert(reference.number).inserted { return 0 }
        var dropped = 0
        let namesPlace = try place(of: "Names", in: node)
        let names = try value(at: namesPlace).items
        var kept: [PDFObject] = []
        for pair in stride(from: 0, to: names.count - 1, by: 2) {
            if let page = try destinationPage(try resolved(names[pair + 1])), gone.contains(page) {
                dropped += 1
            } else {
                kept += [names[pair], names[pair + 1]]
            }
        }
        if dropped > 0 { try write(.array(kept), at: namesPlace) }
        for case .reference(let kid) in try value(at: try place(of: "Kids", in: node)).items {
            dropped += try dropNames(in: .object(kid), toPages: gone, depth: depth + 1, seen: &seen)
        }
        return dropped
    }

    // MARK: Places

    /// Where entry `key` of the dictionary at `owner` lives: the object it refers to, or the
    /// entry itself.
    package func place(of key: String, in owner: PDFPlace) throws -> PDFPlace {
        if case .reference(let reference)? = try value(at: owner)[key] { return .object(reference) }
        return .entry(key, of: owner)
    }

    /// The value at `place`; null when nothing is there.
    package func value(at place: PDFPlace) throws -> PDFObject {
        switch place {
        case .object(let reference): return try object(reference.number)
        case .entry(let key, of: let owner): return try resolved(try value(at: owner)[key])
        }
    }

    /// Writes `value` at `place`: the object, or the entry of the dictionary that holds it.
    package func write(_ value: PDFObject, at place: PDFPlace) throws {
        switch place {
        case .object(let reference):
            try replaceObject(reference, with: value)
        case .entry(let key, of: .object(let owner)):
            try setEntry(key, of: owner, to: value)
        case .entry(let key, of: let owner):
            try write(try self.value(at: owner).setting(key, to: value), at: owner)
        }
    }
}

/// The page tree and destinations as the objects hold them, read: what editing the page tree
/// and copying pages from another document (``PDFObjectEditing/copyPages(_:of:)``) start from.
extension PDFObjectReading {
    /// The pages in order, as the tree from the catalog's `/Pages` holds them, read from the
    /// objects themselves (not from what the engine may have read of them before an edit).
    package func pageReferences() throws -> [PDFReference] {
        guard case .reference(let root)? = try object(try catalogReference().number)["Pages"] else {
            throw damaged("the catalog has no page tree")
        }
        var pages: [PDFReference] = []
        var seen: Set<Int> = []
        func walk(_ node: PDFReference, depth: Int) throws {
            guard depth < Self.treeDepthLimit, seen.insert(node.number).inserted else {
                throw damaged("the page tree holds a node twice or nests deeper than \(Self.treeDepthLimit) levels")
            }
            let dictionary = try object(node.number)
            guard try resolved(dictionary["Type"]) == .name("Pages") else {
                pages.append(node)
                return
            }
            for case .reference(let kid) in try resolved(dictionary["Kids"]).items { try walk(kid, depth: depth + 1) }
        }
        try walk(root, depth: 0)
        return pages
    }

    /// The index of page object `page`, counted from its place in the tree: the pages
    /// before it under each node above it (a node's `/Count`, a page's one). Only the nodes
    /// on the way up and their kids are read, not every page; nil when the `/Parent` chain
    /// does not lead to the root through `/Kids` that hold it. The count trusts `/Count`, so
    /// a caller checks the result against the engine's numbering.
    func pageIndex(placing page: PDFReference) throws -> Int? {
        guard case .reference(let root)? = try object(try catalogReference().number)["Pages"] else { return nil }
        var index = 0
        var node = page
        var seen: Set<Int> = [page.number]
        while node.number != root.number {
            guard seen.count <= Self.treeDepthLimit, case .reference(let parent)? = try object(node.number)["Parent"],
                seen.insert(parent.number).inserted
            else { return nil }
            let kids = try resolved(try object(parent.number)["Kids"]).items
            guard let position = kids.firstIndex(where: { $0.referenceNumber == node.number }) else { return nil }
            for kid in kids[..<position] {
                let dictionary = try resolved(kid)
                guard let count = try resolved(dictionary["Type"]) == .name("Pages") ? try resolved(dictionary["Count"]).wholeNumber : 1, count >= 0 else {
                    return nil
                }
                index += count
            }
            node = parent
        }
        return index
    }

    /// The appearance stream an annotation (`widget`) shows on screen: its normal appearance,
    /// or the state of it that `/AS` names; nil for one that is hidden or not viewed (`/F`). A
    /// form XObject is told from a dictionary of states by its `/BBox`.
    func viewedAppearance(of widget: PDFObject) throws -> PDFReference? {
        let flags = AnnotationFlags(rawValue: try resolved(widget["F"]).wholeNumber ?? 0)
        guard flags.isDisjoint(with: [.hidden, .noView]) else { return nil }
        var states = try resolved(widget["AP"])["N"]
        if case .reference(let reference)? = states {
            states = try object(reference.number)
            if states?["BBox"] != nil { return reference }
        }
        guard case .name(let state) = try resolved(widget["AS"]), case .reference(let chosen)? = states?[state],
            try object(chosen.number)["BBox"] != nil
        else { return nil }
        return chosen
    }

    /// The content streams of the page dictionary `page` in order: its `/Contents` array's,
    /// or its one stream.
    func contentStreams(of page: PDFObject) throws -> [PDFObject] {
        switch page["Contents"] {
        case .none: return []
        case .array(let items)?: return items
        case .reference(let reference)?:
            if case .array(let items) = try object(reference.number) { return items }
            return [.reference(reference)]
        case let other?: return [other]
        }
    }

    /// Entry `key` of the page dictionary `page`, or of the nearest node above it that has
    /// one (ISO 32000-1, table 30: `Resources`, `MediaBox`, `CropBox`, `Rotate`); nil when
    /// none has, within the tree's depth limit.
    func inherited(_ key: String, of page: PDFObject) throws -> PDFObject? {
        var node = page
        var seen: Set<Int> = []
        for _ in 0..<Self.treeDepthLimit {
            if let value = node[key] { return value }
            guard case .reference(let parent)? = node["Parent"], seen.insert(parent.number).inserted else { return nil }
            node = try object(parent.number)
        }
        return nil
    }

    // MARK: Destinations

    /// Every named destination, by its name's bytes: the catalog's `/Dests` dictionary and
    /// its `/Names` `/Dests` tree (the dictionary wins on a name both hold).
    func namedDestinations() throws -> [[UInt8]: PDFObject] {
        let catalog = try object(try catalogReference().number)
        var named: [[UInt8]: PDFObject] = [:]
        var seen: Set<Int> = []
        func walk(_ node: PDFObject?, depth: Int) throws {
            guard depth <= Self.treeDepthLimit else { return }
            if case .reference(let reference)? = node, !seen.insert(reference.number).inserted { return }
            let dictionary = try resolved(node)
            let names = try resolved(dictionary["Names"]).items
            for pair in stride(from: 0, to: names.count - 1, by: 2) {
                if case .string(let name) = try resolved(names[pair]) { named[name] = names[pair + 1] }
            }
            for kid in try resolved(dictionary["Kids"]).items { try walk(kid, depth: depth + 1) }
        }
        try walk(try resolved(catalog["Names"])["Dests"], depth: 0)
        if case .dictionary(let entries) = try resolved(catalog["Dests"]) {
            for (name, destination) in entries { named[Array(name.utf8)] = destination }
        }
        return named
    }

    /// Where an outline item or link goes in its document: its `/Dest`, or its GoTo action's
    /// `/D` (resolved); nil for anything else (a URI, a remote file, a named action).
    func goToDestination(of item: PDFObject) throws -> PDFObject? {
        if let destination = item["Dest"] { return try resolved(destination) }
        let action = try resolved(item["A"])
        guard try resolved(action["S"]) == .name("GoTo") else { return nil }
        return try resolved(action["D"])
    }

    /// The explicit destination (an array) `destination` stands for: itself, what its name
    /// names in `named`, or a dictionary's `/D`; null when a name names nothing.
    func explicitDestination(_ destination: PDFObject, named: [[UInt8]: PDFObject]) throws -> PDFObject {
        switch destination {
        case .name(let name): return try explicitDestination(try resolved(named[Array(name.utf8)]), named: [:])
        case .string(let name): return try explicitDestination(try resolved(named[name]), named: [:])
        case .dictionary: return try resolved(destination["D"])
        default: return destination
        }
    }

    /// The page (object number) an outline item or link goes to, followed by name when it
    /// names its destination; nil for anything else.
    func destinationPage(of item: PDFObject, named: [[UInt8]: PDFObject]) throws -> Int? {
        guard let destination = try goToDestination(of: item) else { return nil }
        return try explicitDestination(destination, named: named).items.first?.asReference?.number
    }

    /// The page (object number) an explicit destination names: an array whose first item
    /// refers to the page, or a dictionary with such a `/D`; nil for a page by number (a
    /// remote destination) or anything else.
    func destinationPage(_ destination: PDFObject) throws -> Int? {
        try explicitDestination(destination, named: [:]).items.first?.asReference?.number
    }

    func damaged(_ message: String) -> RendererError {
        RendererError(.damaged, message, rendererID: rendererID)
    }

    /// How deep the page, outline, field and name trees are followed.
    static var treeDepthLimit: Int { 64 }
    /// How many outline items are followed.
    static var outlineItemLimit: Int { 100_000 }
}

extension PDFObject {
    /// The reference this object is; nil for any other object.
    package var asReference: PDFReference? {
        if case .reference(let reference) = self { return reference }
        return nil
    }

    /// The object number of the reference this object is; nil for any other object.
    var referenceNumber: Int? { asReference?.number }
}
