import CPopplerGlib
import RendererEngine

extension PopplerDocument {
    /// The structure tree as the glib twin reads it (opened again after an edit): poppler
    /// resolves the role map, and gives each marked-content sequence's text by reading its
    /// page. Content on pages not asked for is not read.
    func structureTree(pages: [Int]) throws -> [StructureElement]? {
        guard let iterator = try currentGlib().structureIterator() else { return nil }
        defer { poppler_structure_element_iter_free(iterator) }
        return logging {
            var walk = StructureWalk(pages: Set(pages))
            return walk.elements(of: iterator, depth: 0)
        }
    }
}

/// One walk of a structure tree, which counts the elements it keeps.
private struct StructureWalk {
    let pages: Set<Int>
    var count = 0

    init(pages: Set<Int>) {
        self.pages = pages
    }

    /// The content at `iterator`'s level: elements holding something of the pages asked
    /// for, and the text of marked content on them.
    mutating func content(of iterator: OpaquePointer, depth: Int) -> [StructureElement.Content] {
        var content: [StructureElement.Content] = []
        repeat {
            guard count < StructureElement.maximumCount, let node = poppler_structure_element_iter_get_element(iterator) else { continue }
            defer { g_object_unref(UnsafeMutableRawPointer(node)) }
            let page = Int(poppler_structure_element_get_page(node))
            switch poppler_structure_element_get_kind(node) {
            case POPPLER_STRUCTURE_ELEMENT_CONTENT:
                guard pages.contains(page), let text = Self.string(poppler_structure_element_get_text(node, POPPLER_STRUCTURE_GET_TEXT_NONE)), !text.isEmpty else { continue }
                content.append(.text(Self.undoingDocEncoding(text), pageIndex: page))
            case POPPLER_STRUCTURE_ELEMENT_OBJECT_REFERENCE:
                continue
            case let kind:
                count += 1
                var children: [StructureElement.Content] = []
                if depth + 1 < StructureElement.maximumDepth, let child = poppler_structure_element_iter_get_child(iterator) {
                    children = self.content(of: child, depth: depth + 1)
                    poppler_structure_element_iter_free(child)
                }
                let onPage = page >= 0 && pages.contains(page)
                // A figure is kept for its description; any other element for its content.
                guard !children.isEmpty || (onPage && kind == POPPLER_STRUCTURE_ELEMENT_FIGURE) else { continue }
                content.append(.element(StructureElement(
                    type: Self.types.first { $0.kind == kind }?.type ?? "Span", pageIndex: page >= 0 ? page : nil,
                    alternateText: Self.string(poppler_structure_element_get_alt_text(node)),
                    actualText: Self.string(poppler_structure_element_get_actual_text(node)),
                    language: Self.string(poppler_structure_element_get_language(node)),
                    content: children)))
            }
        } while poppler_structure_element_iter_next(iterator) != 0
        return content
    }

    /// The elements at the tree's top level.
    mutating func elements(of iterator: OpaquePointer, depth: Int) -> [StructureElement] {
        content(of: iterator, depth: depth).compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// Marked content's text as it should be: poppler-glib 22.12 reads the UTF-8 that
    /// poppler's core gives a structure element's text as a PDFDocEncoded string, so that
    /// "•" comes back as "â•¢"; the bytes are taken back and read as UTF-8. Text that is
    /// not such a reading (it has a character PDFDocEncoding lacks, or its bytes are no
    /// UTF-8) is kept.
    static func undoingDocEncoding(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x80 }), let bytes = PDFTextString.docEncodedBytes(of: text),
            let decoded = String(validating: bytes, as: UTF8.self)
        else { return text }
        return decoded
    }

    /// A string poppler allocated, freed.
    private static func string(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        return String(cString: pointer)
    }

    /// The standard structure type of each of poppler's kinds.
    private static let types: [(kind: PopplerStructureElementKind, type: String)] = [
        (POPPLER_STRUCTURE_ELEMENT_DOCUMENT, "Document"), (POPPLER_STRUCTURE_ELEMENT_PART, "Part"),
        (POPPLER_STRUCTURE_ELEMENT_ARTICLE, "Art"), (POPPLER_STRUCTURE_ELEMENT_SECTION, "Sect"),
        (POPPLER_STRUCTURE_ELEMENT_DIV, "Div"), (POPPLER_STRUCTURE_ELEMENT_SPAN, "Span"),
        (POPPLER_STRUCTURE_ELEMENT_QUOTE, "Quote"), (POPPLER_STRUCTURE_ELEMENT_NOTE, "Note"),
        (POPPLER_STRUCTURE_ELEMENT_REFERENCE, "Reference"), (POPPLER_STRUCTURE_ELEMENT_BIBENTRY, "BibEntry"),
        (POPPLER_STRUCTURE_ELEMENT_CODE, "Code"), (POPPLER_STRUCTURE_ELEMENT_LINK, "Link"),
        (POPPLER_STRUCTURE_ELEMENT_ANNOT, "Annot"), (POPPLER_STRUCTURE_ELEMENT_BLOCKQUOTE, "BlockQuote"),
        (POPPLER_STRUCTURE_ELEMENT_CAPTION, "Caption"), (POPPLER_STRUCTURE_ELEMENT_NONSTRUCT, "NonStruct"),
        (POPPLER_STRUCTURE_ELEMENT_TOC, "TOC"), (POPPLER_STRUCTURE_ELEMENT_TOC_ITEM, "TOCI"),
        (POPPLER_STRUCTURE_ELEMENT_INDEX, "Index"), (POPPLER_STRUCTURE_ELEMENT_PRIVATE, "Private"),
        (POPPLER_STRUCTURE_ELEMENT_PARAGRAPH, "P"), (POPPLER_STRUCTURE_ELEMENT_HEADING, "H"),
        (POPPLER_STRUCTURE_ELEMENT_HEADING_1, "H1"), (POPPLER_STRUCTURE_ELEMENT_HEADING_2, "H2"),
        (POPPLER_STRUCTURE_ELEMENT_HEADING_3, "H3"), (POPPLER_STRUCTURE_ELEMENT_HEADING_4, "H4"),
        (POPPLER_STRUCTURE_ELEMENT_HEADING_5, "H5"), (POPPLER_STRUCTURE_ELEMENT_HEADING_6, "H6"),
        (POPPLER_STRUCTURE_ELEMENT_LIST, "L"), (POPPLER_STRUCTURE_ELEMENT_LIST_ITEM, "LI"),
        (POPPLER_STRUCTURE_ELEMENT_LIST_LABEL, "Lbl"), (POPPLER_STRUCTURE_ELEMENT_LIST_BODY, "LBody"),
        (POPPLER_STRUCTURE_ELEMENT_TABLE, "Table"), (POPPLER_STRUCTURE_ELEMENT_TABLE_ROW, "TR"),
        (POPPLER_STRUCTURE_ELEMENT_TABLE_HEADING, "TH"), (POPPLER_STRUCTURE_ELEMENT_TABLE_DATA, "TD"),
        (POPPLER_STRUCTURE_ELEMENT_TABLE_HEADER, "THead"), (POPPLER_STRUCTURE_ELEMENT_TABLE_FOOTER, "TFoot"),
        (POPPLER_STRUCTURE_ELEMENT_TABLE_BODY, "TBody"), (POPPLER_STRUCTURE_ELEMENT_RUBY, "Ruby"),
        (POPPLER_STRUCTURE_ELEMENT_RUBY_BASE_TEXT, "RB"), (POPPLER_STRUCTURE_ELEMENT_RUBY_ANNOT_TEXT, "RT"),
        (POPPLER_STRUCTURE_ELEMENT_RUBY_PUNCTUATION, "RP"), (POPPLER_STRUCTURE_ELEMENT_WARICHU, "Warichu"),
        (POPPLER_STRUCTURE_ELEMENT_WARICHU_TEXT, "WT"), (POPPLER_STRUCTURE_ELEMENT_WARICHU_PUNCTUATION, "WP"),
        (POPPLER_STRUCTURE_ELEMENT_FIGURE, "Figure"), (POPPLER_STRUCTURE_ELEMENT_FORMULA, "Formula"),
        (POPPLER_STRUCTURE_ELEMENT_FORM, "Form"),
    ]
}
