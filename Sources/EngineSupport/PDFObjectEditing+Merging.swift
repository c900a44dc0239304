#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// Pages copied from another PDF, over the PDF-object primitives of both documents: the
/// pages with what they use (contents, resources, fonts, images: each object once, streams as
/// stored), their annotations, and the other document's outline items that go to them.
/// Destinations into the copied pages are re-pointed at the copies; links and items into
/// pages not copied are dropped and counted. Widgets are not copied (their fields belong to
/// the other form). The copies are in no page tree yet: the engine puts them there.
extension PDFObjectEditing {
    /// Copies pages `indices` (in range, in that order) of `source` into this document;
    /// returns the new page objects, one for each index, and what was left out.
    package func copyPages(_ indices: [Int], of source: some PDFObjectReading) throws -> (pages: [PDFReference], report: PageEditReport) {
        var merge = try PageMerge(from: source, into: self)
        let pages = try merge.copy(indices)
        return (pages, merge.report)
    }
}

/// One copy of pages from `source` into `target` (``PDFObjectEditing/copyPages(_:of:)``).
private struct PageMerge<Source: PDFObjectReading, Target: PDFObjectEditing> {
    var objects: PDFObjectCopier<Source, Target>
    /// The source's named destinations.
    let named: [[UInt8]: PDFObject]
    /// What was left out.
    var report = PageEditReport()

    var source: Source { objects.source }
    var target: Target { objects.target }

    init(from source: Source, into target: Target) throws {
        var blocked = Set(try source.pageReferences().map(\.number))
        blocked.insert(try source.catalogReference().number)
        objects = PDFObjectCopier(from: source, into: target, blocking: blocked)
        named = try source.namedDestinations()
    }

    /// Copies pages `indices` of the source; returns their copies, in order.
    mutating func copy(_ indices: [Int]) throws -> [PDFReference] {
        let chosen = try indices.map { try source.pageReference(at: $0) }
        // Each index gets a page of its own; destinations go to the first copy of a page.
        var copies: [PDFReference] = []
        for page in chosen {
            let copy = try target.addObject(.null)
            copies.append(copy)
            if objects.copies[page.number] == nil { objects.copies[page.number] = .reference(copy) }
        }
        for (page, copy) in zip(chosen, copies) {
            var dictionary = try pageDictionary(of: page)
            let annotations = try copyAnnotations(of: page, onto: copy)
            if !annotations.isEmpty { dictionary["Annots"] = .array(annotations.map(PDFObject.reference)) }
            try target.replaceObject(copy, with: .dictionary(dictionary))
        }
        if case .reference(let outline)? = try source.object(try source.catalogReference().number)["Outlines"] {
            try copyOutline(under: outline)
        }
        try objects.finish()
        return copies
    }

    /// The entries of a copy of `page`: what a page needs to look as it does, inherited ones
    /// (ISO 32000-1, table 30) taken from the nodes above it. Its tree, annotations, beads,
    /// structure and thumbnail stay behind.
    private mutating func pageDictionary(of page: PDFReference) throws -> [String: PDFObject] {
        let own = try source.object(page.number)
        var entries: [String: PDFObject] = ["Type": .name("Page")]
        for key in ["Contents", "BleedBox", "TrimBox", "ArtBox", "UserUnit", "Group"] {
            if let value = own[key] { entries[key] = try objects.map(value) }
        }
        for key in ["Resources", "MediaBox", "CropBox", "Rotate"] {
            if let value = try source.inherited(key, of: own) { entries[key] = try objects.map(value) }
        }
        return entries
    }

    /// Copies the annotations of source page `page` for its copy `copy`: each but for its
    /// page (`/P`, made the copy), popup and reply links; a link or GoTo action into the
    /// copied pages goes to the copy, one elsewhere is dropped and counted. Widgets (counted)
    /// and popups are not copied. Returns the copies, in order.
    private mutating func copyAnnotations(of page: PDFReference, onto copy: PDFReference) throws -> [PDFReference] {
        var copies: [PDFReference] = []
        for item in try source.resolved(try source.object(page.number)["Annots"]).items {
            guard case .dictionary(var entries) = try source.resolved(item) else { continue }
            let subtype = try source.resolved(entries["Subtype"])
            if subtype == .name("Popup") { continue }
            if subtype == .name("Widget") {
                report.formFields += 1
                continue
            }
            let destination = try source.goToDestination(of: .dictionary(entries))
            for key in ["P", "Popup", "IRT", "Parent"] { entries[key] = nil }
            if destination != nil { (entries["Dest"], entries["A"]) = (nil, nil) }
            var annotation = try objects.map(.dictionary(entries))
            if let destination {
                guard let copied = try copiedDestination(destination) else {
                    report.links += 1
                    continue
                }
                annotation = annotation.setting("Dest", to: copied)
            }
            copies.append(try target.addObject(annotation.setting("P", to: .reference(copy))))
        }
        return copies
    }

    /// The destination `destination` (of the source) becomes: the same explicit destination
    /// with its page replaced by that page's copy; nil when that page was not copied.
    private mutating func copiedDestination(_ destination: PDFObject) throws -> PDFObject? {
        let items = try source.explicitDestination(destination, named: named).items
        guard case .reference(let page)? = items.first, case .reference(let copy)? = objects.copies[page.number] else { return nil }
        return .array([.reference(copy)] + (try items.dropFirst().map { try objects.map($0) }))
    }

    /// Copies the source's outline items under `outline` that go into the copied pages, act
    /// otherwise (a URI, a named action), or have such items below them, to the end of the
    /// target's outline (made when it has none), closed; counts the items left out.
    private mutating func copyOutline(under outline: PDFReference) throws {
        var seen: Set<Int> = []
        let items = try copyOutlineItems(under: outline, depth: 0, seen: &seen)
        guard !items.isEmpty else { return }
        let root = try outlineRoot()
        let entries = try target.object(root.number)
        let last = entries["Last"]?.asReference
        try link(items, under: root, after: last)
        if let last {
            try target.setEntry("Next", of: last, to: .reference(items[0].reference))
        } else {
            try target.setEntry("First", of: root, to: .reference(items[0].reference))
        }
        try target.setEntry("Last", of: root, to: .reference(items[items.count - 1].reference))
        let open = try target.resolved(entries["Count"]).wholeNumber ?? 0
        try target.setEntry("Count", of: root, to: .integer(max(open, 0) + items.count))
    }

    /// The copies of the items below source item `parent` that are kept, each allocated, with
    /// its entries but for its place among its siblings (`/Parent`, `/Prev`, `/Next`), which
    /// ``link(_:under:after:)`` writes.
    private mutating func copyOutlineItems(under parent: PDFReference, depth: Int, seen: inout Set<Int>) throws -> [OutlineItemCopy] {
        guard depth <= Target.treeDepthLimit else { return [] }
        var kept: [OutlineItemCopy] = []
        var next = try source.object(parent.number)["First"]
        while case .reference(let item)? = next, seen.count < Target.outlineItemLimit, seen.insert(item.number).inserted {
            let dictionary = try source.object(item.number)
            next = dictionary["Next"]
            let below = try copyOutlineItems(under: item, depth: depth + 1, seen: &seen)
            let destination = try source.goToDestination(of: dictionary)
            let copiedTarget = try destination.map { try copiedDestination($0) } ?? nil
            // An action other than GoTo (a URI, a named action) is valid in any document.
            let action = destination == nil ? dictionary["A"] : nil
            if destination != nil && copiedTarget == nil { report.outlineItems += 1 }
            guard copiedTarget != nil || action != nil || !below.isEmpty else { continue }
            var entries: [String: PDFObject] = ["Title": try objects.map(dictionary["Title"] ?? .string([]))]
            if let copiedTarget { entries["Dest"] = copiedTarget } else if let action { entries["A"] = try objects.map(action) }
            let copy = try target.addObject(.null)
            if !below.isEmpty {
                try link(below, under: copy, after: nil)
                entries["First"] = .reference(below[0].reference)
                entries["Last"] = .reference(below[below.count - 1].reference)
                entries["Count"] = .integer(-below.count)
            }
            kept.append(OutlineItemCopy(reference: copy, entries: entries))
        }
        return kept
    }

    /// Writes `items` as siblings in order under `parent`, the first after `previous`.
    private func link(_ items: [OutlineItemCopy], under parent: PDFReference, after previous: PDFReference?) throws {
        for (position, item) in items.enumerated() {
            var entries = item.entries
            entries["Parent"] = .reference(parent)
            if let before = position > 0 ? items[position - 1].reference : previous { entries["Prev"] = .reference(before) }
            if position + 1 < items.count { entries["Next"] = .reference(items[position + 1].reference) }
            try target.replaceObject(item.reference, with: .dictionary(entries))
        }
    }

    /// The target's outline root, made (and kept in an object of its own) when it has none
    /// or holds it in the catalog directly.
    private func outlineRoot() throws -> PDFReference {
        let catalog = try target.catalogReference()
        let outlines = try target.object(catalog.number)["Outlines"]
        if case .reference(let root)? = outlines, case .dictionary = try target.object(root.number) { return root }
        var entries: [String: PDFObject] = ["Type": .name("Outlines")]
        if case .dictionary(let direct)? = outlines { entries.merge(direct) { kept, _ in kept } }
        let root = try target.addObject(.dictionary(entries))
        try target.setEntry("Outlines", of: catalog, to: .reference(root))
        return root
    }
}

/// A copied outline item, allocated, with its entries but for its place among its siblings.
private struct OutlineItemCopy {
    var reference: PDFReference
    var entries: [String: PDFObject]
}

/// Objects of one document copied into another, each once: a reference in a copied value
/// goes to the copy of what it names. Objects that are not streams are added as placeholders
/// when first met and written by ``finish()``, so that a cycle of references ends; a stream
/// is added whole when first met (its stored bytes, filters kept), after what its dictionary
/// refers to, and a reference back to a stream still being copied (a cycle of streams, which
/// no valid file has) becomes null. What `blocked` holds (the other document's pages and
/// catalog, unless copied) is never copied: a reference to it becomes null.
private struct PDFObjectCopier<Source: PDFObjectReading, Target: PDFObjectEditing> {
    let source: Source
    let target: Target
    /// Source objects (by number) that references to become null.
    var blocked: Set<Int>
    /// What a reference to a source object (by number) becomes in the target.
    var copies: [Int: PDFObject] = [:]
    /// Placeholders added for source objects, still to be written.
    private var pending: [(source: PDFObject, copy: PDFReference)] = []
    /// Streams being copied (their dictionaries' references followed).
    private var streamsInProgress: Set<Int> = []
    /// A stored stream is at most as long as the source file.
    private let longestStream: Int

    init(from source: Source, into target: Target, blocking blocked: Set<Int>) {
        self.source = source
        self.target = target
        self.blocked = blocked
        longestStream = (try? source.fileLength()) ?? 0
    }

    /// `value` with each reference replaced by what it becomes in the target.
    mutating func map(_ value: PDFObject) throws -> PDFObject {
        switch value {
        case .reference(let reference): return try copy(reference.number)
        case .array(let items): return .array(try items.map { try map($0) })
        case .dictionary(let entries): return .dictionary(try entries.mapValues { try map($0) })
        default: return value
        }
    }

    /// Writes the placeholders' objects, and those of what they refer to.
    mutating func finish() throws {
        while let placeholder = pending.popLast() {
            try target.replaceObject(placeholder.copy, with: try map(placeholder.source))
        }
    }

    /// What a reference to source object `number` becomes, copying it when first met.
    private mutating func copy(_ number: Int) throws -> PDFObject {
        if let copy = copies[number] { return copy }
        guard !blocked.contains(number), !streamsInProgress.contains(number) else { return .null }
        let value = try source.object(number)
        let type = try source.resolved(value["Type"])
        if value == .null || type == .name("Pages") || type == .name("Page") || type == .name("Catalog") {
            copies[number] = .null
            return .null
        }
        guard let contents = try source.streamContents(number, limit: longestStream, decoded: false) else {
            let placeholder = try target.addObject(.null)
            copies[number] = .reference(placeholder)
            pending.append((value, placeholder))
            return .reference(placeholder)
        }
        guard streamsInProgress.count < Target.treeDepthLimit else {
            throw source.damaged("streams refer to streams more than \(Target.treeDepthLimit) deep")
        }
        streamsInProgress.insert(number)
        defer { streamsInProgress.remove(number) }
        let dictionary = try map(value.setting("Length", to: nil))
        let copy = PDFObject.reference(try target.addStream(dictionary, contents: contents))
        copies[number] = copy
        return copy
    }
}
