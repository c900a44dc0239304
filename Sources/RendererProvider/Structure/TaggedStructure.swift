import RendererEngine

/// The structure a tagged document's structure tree states, page by page: the one reading of
/// `StructureElement`s behind ``Document/structuredText(pages:cancellation:)``.
///
/// - `H1` to `H6` are headings of their level; `H` a heading one level below the sections
///   (`Sect`) around it.
/// - `L` is a list of its `LI`s, each item's text its `LBody`'s (or what it holds beside its
///   label, `Lbl`), a bullet or number it begins with taken off when it has no label; it is
///   ordered when its first item's label, or that first bullet or number, is a number or a
///   letter. A list inside an item is part of the item's text.
/// - `Table` is a table of its `TR`s (those of `THead`, `TBody` and `TFoot` too), each row
///   of its `TH` and `TD` cells.
/// - `Figure` is a figure with its alternate description; `Code` is code.
/// - `P` and every other element that holds text (`Caption`, `BlockQuote`, `Note`, `TOCI`, a
///   `Span` or `Link` outside a paragraph...) is a paragraph; one without text gives what its
///   children give (a figure); grouping elements (`Document`,
///   `Part`, `Art`, `Sect`, `Div`, `NonStruct`, `TOC`...) give what they hold, their own
///   text a paragraph between their children.
/// - An element's text is its `/ActualText` where it has one, else its marked content's in
///   order, lines joined by spaces and a word a hyphen broke at a line's end joined again.
/// - An element is on the page of its first text, else the page the tree gives it.
struct TaggedStructure {
    /// The elements of each page that has any, in the tree's order.
    private(set) var pages: [Int: [StructuredText.Element]] = [:]

    /// The structure `tree` states.
    init(tree: [StructureElement]) {
        for element in tree { add(element, sections: 0) }
    }

    /// The types that only group others.
    private static let grouping: Set<String> = ["Document", "Part", "Art", "Sect", "Div", "NonStruct", "Private", "TOC", "Index", "THead", "TBody", "TFoot", "Form"]

    private mutating func add(_ element: StructureElement, sections: Int) {
        let type = element.type
        if Self.grouping.contains(type), element.actualText == nil {
            var loose: [StructureElement.Content] = []
            func flush(_ structure: inout TaggedStructure) {
                let text = Self.text(of: loose)
                if !text.isEmpty, let page = Self.page(of: loose) { structure.append(.paragraph(text), page: page) }
                loose = []
            }
            for part in element.content {
                guard case .element(let child) = part else {
                    loose.append(part)
                    continue
                }
                flush(&self)
                add(child, sections: sections + (type == "Sect" ? 1 : 0))
            }
            flush(&self)
            return
        }
        guard let page = Self.page(of: element.content) ?? element.pageIndex else { return }
        switch type {
        case "H1", "H2", "H3", "H4", "H5", "H6":
            let text = Self.text(of: element)
            if !text.isEmpty { append(.heading(level: Int(type.dropFirst())!, text: text), page: page) }
        case "H":
            let text = Self.text(of: element)
            if !text.isEmpty { append(.heading(level: min(6, sections + 1), text: text), page: page) }
        case "Code":
            let text = Self.text(of: element)
            if !text.isEmpty { append(.code(text), page: page) }
        case "Figure":
            append(.figure(alternateText: element.alternateText.map(\.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }), page: page)
        case "L" where element.actualText == nil:
            append(Self.list(element), page: page)
        case "Table" where element.actualText == nil:
            let rows = Self.rows(of: element).map { $0.map(Self.text(of:)) }
            if rows.isEmpty {
                let text = Self.text(of: element)
                if !text.isEmpty { append(.paragraph(text), page: page) }
            } else {
                append(.table(rows: rows), page: page)
            }
        default:
            let text = Self.text(of: element)
            if !text.isEmpty {
                append(.paragraph(text), page: page)
            } else {
                // A paragraph that holds only a figure (as LibreOffice writes a picture).
                for child in element.children { add(child, sections: sections) }
            }
        }
    }

    private mutating func append(_ element: StructuredText.Element, page: Int) {
        pages[page, default: []].append(element)
    }

    /// A list of `element`'s items.
    private static func list(_ element: StructureElement) -> StructuredText.Element {
        var ordered: Bool?
        var items: [String] = []
        for item in element.children {
            let label = item.children.first { $0.type == "Lbl" }.map(text(of:)).flatMap { $0.isEmpty ? nil : $0 }
            var body = item.children.first { $0.type == "LBody" }.map(text(of:))
                ?? text(of: item.content.filter { if case .element(let child) = $0 { child.type != "Lbl" } else { true } })
            if let label {
                if ordered == nil { ordered = ListMarker(label + " x")?.ordered }
            } else if let marker = ListMarker(body) {
                // The label drawn in the body, untagged (as LibreOffice writes lists).
                if ordered == nil { ordered = marker.ordered }
                body = marker.rest
            }
            items.append(body)
        }
        return .list(ordered: ordered ?? false, items: items.filter { !$0.isEmpty })
    }

    /// The cells of a table's rows, in order, those of nested tables left to them.
    private static func rows(of table: StructureElement) -> [[StructureElement]] {
        table.children.flatMap { child -> [[StructureElement]] in
            switch child.type {
            case "TR": [child.children.filter { $0.type == "TH" || $0.type == "TD" }]
            case "THead", "TBody", "TFoot": rows(of: child)
            default: []
            }
        }
    }

    /// The page of the first text in `content`, at any depth.
    private static func page(of content: [StructureElement.Content]) -> Int? {
        for part in content {
            switch part {
            case .text(_, let page): return page
            case .element(let element): if let page = page(of: element.content) { return page }
            }
        }
        return nil
    }

    /// `element`'s text, as the type's comment says.
    static func text(of element: StructureElement) -> String {
        if let actualText = element.actualText { return text(of: [.text(actualText, pageIndex: 0)]) }
        return text(of: element.content)
    }

    /// The text of `content`: its pieces in order, lines joined by spaces (none added where a
    /// piece ends or the next begins with one), a word broken by a hyphen at a line's end
    /// joined again, runs of white space made one space.
    private static func text(of content: [StructureElement.Content]) -> String {
        var lines: [String] = []
        func collect(_ content: [StructureElement.Content]) {
            for part in content {
                switch part {
                case .text(let text, _): lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                case .element(let element):
                    if let actualText = element.actualText { lines.append(actualText) } else { collect(element.content) }
                }
            }
        }
        collect(content)
        var out = ""
        for line in lines where !line.isEmpty {
            if out.isEmpty || out.last!.isWhitespace || line.first!.isWhitespace {
                out += line
            } else {
                LayoutAnalysis.join(line, onto: &out)
            }
        }
        return out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
