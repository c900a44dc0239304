import RendererEngine

/// One terminal field of the AcroForm's field tree (ISO 32000-1, 12.7.3.1), as
/// ``PDFObjectEditing/terminalFields()`` finds it: what form listing, signature listing and
/// form filling read, for every engine.
package struct TerminalField {
    /// One of the field's widget annotations.
    package struct Widget {
        /// Its object; nil for a widget written inside the array that lists it.
        package var reference: PDFReference?
        /// Its dictionary.
        package var dictionary: PDFObject
        /// The index of the page showing it: its `/P`, else the page whose `/Annots` lists
        /// it; nil when neither is found.
        package var pageIndex: Int?
        /// Its `/Rect` in user space, corners in order (the first four numbers); empty when
        /// it has none.
        package var rect: UserRect
    }

    /// The field's object; nil for a field written inside the array that lists it.
    package var reference: PDFReference?
    /// The field's dictionary.
    package var dictionary: PDFObject
    /// The fully qualified name: the ancestors' partial names (`/T`) and its own, joined by
    /// dots.
    package var name: String
    /// `/FT`, `/Ff`, `/V`, `/DV` and `/MaxLen`, from the field or the nearest ancestor that
    /// sets them, references followed.
    package var type: String?
    package var flags: Int
    package var value: PDFObject?
    package var defaultValue: PDFObject?
    package var maxLength: Int?
    /// Its `/Kids` when it has any (none of them a field), else the field itself.
    package var widgets: [Widget]

    /// The text of `value`: a text string, a name, or an array's items joined by line
    /// breaks; nil for anything else.
    package static func text(of value: PDFObject?) -> String? {
        switch value {
        case .name(let name)?: name
        case .string(let bytes)?: PDFTextString.decode(bytes)
        case .array(let items)?: items.map { text(of: $0) ?? "" }.joined(separator: "\n")
        default: nil
        }
    }
}

extension PDFObjectEditing {
    /// The terminal fields of the AcroForm, depth first in `/Fields` and `/Kids` order. A
    /// field met a second time is skipped and the walk goes no deeper than 32 levels, so a
    /// loop in the tree ends it there. None without an AcroForm.
    package func terminalFields() throws -> [TerminalField] {
        let catalog = try object(try catalogReference().number)
        var walk = FieldWalk(document: self)
        for item in try resolved(try resolved(catalog["AcroForm"])["Fields"]).items {
            try walk.visit(item, parent: "", inherited: [:], depth: 0)
        }
        return walk.found
    }
}

/// The state of one walk of the field tree: the fields met, those found, and where each
/// page's widgets are.
private struct FieldWalk<Document: PDFObjectEditing> {
    static var maximumDepth: Int { 32 }
    static var inheritedKeys: [String] { ["FT", "Ff", "V", "DV", "MaxLen"] }

    let document: Document
    var seen: Set<Int> = []
    var found: [TerminalField] = []
    /// Page indices by the object number of the page, read when first needed.
    private var pagesByPage: [Int: Int]?
    /// Page indices of the pages widgets named, found from their places in the tree.
    private var placed: [Int: Int] = [:]
    /// Page indices by the object number of each annotation the page's `/Annots` lists, read
    /// at the first widget without a `/P` that names a page.
    private var pagesByAnnotation: [Int: Int]?

    init(document: Document) {
        self.document = document
    }

    /// Visits the field `item` (a reference, or a dictionary written in place), whose object
    /// is `given` when its parent resolved it already.
    mutating func visit(_ item: PDFObject, resolved given: PDFObject? = nil, parent: String, inherited: [String: PDFObject], depth: Int) throws {
        guard depth <= Self.maximumDepth else { return }
        var reference: PDFReference?
        if case .reference(let itemReference) = item {
            guard seen.insert(itemReference.number).inserted else { return }
            reference = itemReference
        }
        let field = try given ?? document.resolved(item)
        guard case .dictionary = field else { return }
        let own = if case .string(let bytes)? = field["T"] { PDFTextString.decode(bytes) } else { "" }
        let name = parent.isEmpty ? own : own.isEmpty ? parent : parent + "." + own
        var inherited = inherited
        for key in Self.inheritedKeys {
            if let entry = field[key], entry != .null { inherited[key] = entry }
        }
        let kids = try document.resolved(field["Kids"]).items
        let kidObjects = try kids.map { try document.resolved($0) }
        if kidObjects.contains(where: { $0["T"] != nil }) {
            for (kid, object) in zip(kids, kidObjects) { try visit(kid, resolved: object, parent: name, inherited: inherited, depth: depth + 1) }
            return
        }
        let widgets: [(PDFReference?, PDFObject)] = kids.isEmpty ? [(reference, field)] : zip(kids, kidObjects).map { item, object in
            if case .reference(let kid) = item { (kid, object) } else { (nil, object) }
        }
        var entries: [String: PDFObject] = [:]
        for (key, entry) in inherited { entries[key] = try document.resolved(entry) }
        let type = if case .name(let type)? = entries["FT"] { type } else { String?.none }
        let flags = if case .integer(let flags)? = entries["Ff"] { flags } else { 0 }
        let maxLength = if case .integer(let length)? = entries["MaxLen"] { length } else { Int?.none }
        var placed: [TerminalField.Widget] = []
        for (widgetReference, widget) in widgets {
            placed.append(TerminalField.Widget(
                reference: widgetReference, dictionary: widget, pageIndex: try pageIndex(of: widget, widgetReference), rect: try rect(of: widget)))
        }
        found.append(TerminalField(
            reference: reference, dictionary: field, name: name, type: type, flags: flags, value: entries["V"], defaultValue: entries["DV"],
            maxLength: maxLength, widgets: placed))
    }

    /// `widget`'s `/Rect`, its corners in order; empty when it has no four numbers.
    private func rect(of widget: PDFObject) throws -> UserRect {
        let numbers = try document.resolved(widget["Rect"]).items.map { (try? document.resolved($0))?.number ?? 0 }
        guard numbers.count >= 4 else { return UserRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        return UserRect(x0: min(numbers[0], numbers[2]), y0: min(numbers[1], numbers[3]), x1: max(numbers[0], numbers[2]), y1: max(numbers[1], numbers[3]))
    }

    /// The page showing `widget`: its `/P`, else the page whose `/Annots` lists it.
    private mutating func pageIndex(of widget: PDFObject, _ reference: PDFReference?) throws -> Int? {
        if case .reference(let page)? = widget["P"] {
            if let index = placed[page.number] { return index }
            // Found from the page's place in the tree, and checked against the engine's own
            // numbering, so that a form on a long document does not read every page.
            if pagesByPage == nil, let index = try? document.pageIndex(placing: page), (try? document.pageReference(at: index))?.number == page.number {
                placed[page.number] = index
                return index
            }
            if let index = try pagesByObject()[page.number] { return index }
        }
        guard let reference else { return nil }
        if pagesByAnnotation == nil {
            var annotations: [Int: Int] = [:]
            for (number, index) in try pagesByObject() {
                for case .reference(let annotation) in try document.resolved(try document.object(number)["Annots"]).items {
                    annotations[annotation.number] = min(annotations[annotation.number] ?? index, index)
                }
            }
            pagesByAnnotation = annotations
        }
        return pagesByAnnotation?[reference.number]
    }

    /// Page indices by the object number of every page, the engine's numbering.
    private mutating func pagesByObject() throws -> [Int: Int] {
        if let pagesByPage { return pagesByPage }
        var pages: [Int: Int] = [:]
        for index in 0..<document.pageCount {
            if let page = try? document.pageReference(at: index), pages[page.number] == nil { pages[page.number] = index }
        }
        pagesByPage = pages
        return pages
    }
}
