import RendererEngine

extension Document {
    /// `structure` (of this document's pages) with each page's links placed on its text
    /// (``StructuredText/Page/links``): each link annotation's words (the text its area
    /// covers on ``textPage(pageAt:)``, its lines joined as a paragraph's are) found in the
    /// page's headings and paragraphs, the first occurrence no other link holds. A link whose
    /// words are in no heading or paragraph (a list item, a table cell, an image) is left
    /// out.
    public func placingLinks(in structure: StructuredText) throws -> StructuredText {
        var placed = structure
        for (number, page) in structure.pages.enumerated() {
            let links = try links(pageAt: page.index)
            guard !links.isEmpty else { continue }
            placed.pages[number] = page.placing(links, on: try textPage(pageAt: page.index))
        }
        return placed
    }
}

extension StructuredText.Page {
    /// The page with `links` placed on its text as ``Document/placingLinks(in:)`` says.
    func placing(_ links: [Link], on textPage: TextPage) -> StructuredText.Page {
        var page = self
        page.links = []
        let texts: [[Unicode.Scalar]?] = elements.map { element in
            switch element {
            case .heading(_, let text), .paragraph(let text): Array(text.unicodeScalars)
            default: nil
            }
        }
        var taken: [Int: [Range<Int>]] = [:]
        for link in links {
            let lines = textPage.text(in: link.area).split(separator: "\n").map(\.trimmingWhitespace).filter { !$0.isEmpty }
            let words = Array(LayoutAnalysis.joined(lines).unicodeScalars)
            guard !words.isEmpty else { continue }
            search: for (element, text) in texts.enumerated() {
                guard let text, text.count >= words.count else { continue }
                for start in 0...(text.count - words.count) where text[start] == words[0] {
                    let range = start..<(start + words.count)
                    guard text[range].elementsEqual(words), !(taken[element] ?? []).contains(where: { $0.overlaps(range) }) else { continue }
                    taken[element, default: []].append(range)
                    page.links.append(StructuredText.Link(
                        element: element, start: start, text: String(String.UnicodeScalarView(words)), destination: link.destination))
                    break search
                }
            }
        }
        page.links.sort { ($0.element, $0.start) < ($1.element, $1.start) }
        return page
    }
}

extension StructuredText.Link {
    /// Where the link leads as an address a reader of the Markdown or HTML may follow: a
    /// web or mail address (`http`, `https`, `mailto`) as the document gives it, or, where
    /// `pages` holds the page it leads to, that page's section (`#page-N`, HTML only); nil
    /// for anything else (`javascript:`, a file, a page not written out), whose words are
    /// then written as plain text.
    func address(toPages pages: Set<Int>?) -> String? {
        switch destination {
        case .uri(let uri):
            let scheme = uri.prefix { $0 != ":" }.lowercased()
            guard ["http", "https", "mailto"].contains(scheme), uri.count > scheme.count + 1,
                !uri.contains(where: { $0.isWhitespace || "<>\\".contains($0) || $0.unicodeScalars.contains { $0.value < 0x20 } })
            else { return nil }
            return uri
        case .page(let index, _, _):
            guard let pages, pages.contains(index) else { return nil }
            return "#page-\(index + 1)"
        }
    }
}
