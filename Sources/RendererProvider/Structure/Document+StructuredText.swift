extension Document {
    /// The structure of the pages' text: headings with their levels, paragraphs (joined
    /// across line breaks and hyphenation), lists, tables and figures, in reading order, with
    /// the links on their words (``placingLinks(in:)``).
    ///
    /// A page with content in the document's tagged structure tree gets the structure the
    /// tree states (``taggedStructure(pages:)``). Any other page's is inferred from the
    /// layout of its ``textPage(pageAt:)`` (so a page that ``textRecognition`` reads is read
    /// first): font sizes and weights, gaps, indentation, and the rules or alignment of table cells,
    /// columns read down before across (``StructuredText/Source/layout``). Inferred heading
    /// levels rank the heading sizes found on the inferred pages asked for, so the same
    /// heading may get another level when fewer pages are asked.
    ///
    /// - Parameters:
    ///   - pages: The page indices, from 0, in the order wanted; every page when nil.
    ///   - cancellation: Checked between pages.
    /// - Throws: `RendererError` with `.pageOutOfRange` for an index past the end, or what
    ///   reading a page's text throws.
    public func structuredText(pages: [Int]? = nil, cancellation: Cancellation? = nil) throws -> StructuredText {
        let indices = pages ?? Array(0..<pageCount)
        let tagged = try taggedStructure(pages: indices)
        let taggedIndices = Set(tagged.map(\.index))
        var textPages: [(index: Int, page: TextPage)] = []
        for index in indices where !taggedIndices.contains(index) {
            try cancellation?.check()
            textPages.append((index, try textPage(pageAt: index)))
        }
        return try structuredText(pages: indices, tagged: tagged, inferringFrom: textPages)
    }

    /// The structure of `pages` as ``structuredText(pages:cancellation:)`` gives it, from
    /// what a caller that reads the text its own way (pages in parallel, or a lease at a time
    /// from a pool) has read: `tagged`, the pages ``taggedStructure(pages:)`` gave, and
    /// `textPages`, the ``textPage(pageAt:)`` of the others (a page in neither is left out).
    /// The figures and rules of the inferred pages are found, their layout analysed together,
    /// and the links placed.
    public func structuredText(
        pages: [Int], tagged: [StructuredText.Page], inferringFrom textPages: [(index: Int, page: TextPage)]
    ) throws -> StructuredText {
        let drawing = try drawing(pages: textPages.map(\.index))
        let figures = try figureAreas(of: textPages, drawing: drawing)
        let rules = Dictionary(grouping: drawing.rules, by: \.pageIndex)
        return try placingLinks(in: StructuredText(pages: pages, tagged: tagged, inferringFrom: textPages, figures: figures, rules: rules))
    }

    /// What `pages` draw with paths (`PageDrawing`), page after page: the rules layout
    /// analysis reads ruled tables from (stroked straight segments and thin filled
    /// rectangles), and the shapes it finds drawn figures in, in the page's content and the
    /// forms it draws. Empty for a page of an engine that reads no page content (Ghostscript,
    /// formats other than PDF) or whose content cannot be read.
    public func drawing(pages: [Int]) throws -> PageDrawing {
        guard !pages.isEmpty, let drawing = try? withEngine(as: ContentReading.self, needing: nil, { document, _ in try document.drawing(pages: pages) }) else { return PageDrawing() }
        return drawing
    }

    /// The areas of the figures on the pages of `textPages` (each page's index and its
    /// ``textPage(pageAt:)``), by page index, which layout analysis places as figures:
    /// - pictures: images (not stencil masks, nor masks) the page's content draws at least
    ///   ``minimumFigureSide`` points wide and high, and covering less than half the page (not
    ///   a scan's picture or a background);
    /// - figures drawn with paths (charts, diagrams): shapes of the page's ``drawing(pages:)``
    ///   that touch one another, with the rules that touch them, as large, and not covered by
    ///   the page's words (docs/documents.md states the rule), where no picture's area overlaps.
    ///
    /// Each area once. None for a page of an engine that reads no page content (Ghostscript,
    /// formats other than PDF) or whose content cannot be read.
    public func figureAreas(of textPages: [(index: Int, page: TextPage)]) throws -> [Int: [PageRect]] {
        try figureAreas(of: textPages, drawing: drawing(pages: textPages.map(\.index)))
    }

    /// ``figureAreas(of:)`` with the pages' drawing read already.
    private func figureAreas(of textPages: [(index: Int, page: TextPage)], drawing: PageDrawing) throws -> [Int: [PageRect]] {
        let pages = textPages.map(\.index)
        var areas: [Int: [PageRect]] = [:]
        var sizes: [Int: PageSize] = [:]
        // A page that draws its picture 20,000 times is asked its size once.
        func size(of index: Int) throws -> PageSize {
            if let size = sizes[index] { return size }
            let size = try pageInfo(pageAt: index).size
            sizes[index] = size
            return size
        }
        let images = pages.isEmpty ? [] : (try? withEngine(as: ContentReading.self, needing: nil, { document, _ in try document.images(pages: pages) })) ?? []
        for image in images where image.role == .image {
            guard let area = image.bounds, area.size.width >= Self.minimumFigureSide, area.size.height >= Self.minimumFigureSide else { continue }
            let page = try size(of: image.pageIndex)
            guard area.size.width * area.size.height < 0.5 * page.width * page.height, !(areas[image.pageIndex] ?? []).contains(area) else { continue }
            areas[image.pageIndex, default: []].append(area)
        }
        let shapes = Dictionary(grouping: drawing.shapes, by: \.pageIndex)
        let rules = Dictionary(grouping: drawing.rules, by: \.pageIndex)
        for (index, page) in textPages {
            guard let pageShapes = shapes[index] else { continue }
            let pictures = areas[index] ?? []
            let drawn = DrawnFigures.areas(
                of: PageDrawing(rules: rules[index] ?? [], shapes: pageShapes), words: page.words, page: try size(of: index))
            for area in drawn where !pictures.contains(where: { $0.overlaps(area) }) { areas[index, default: []].append(area) }
        }
        return areas
    }

    /// The least width and height, in points, of a picture that counts as a figure: smaller
    /// ones are bullets, icons and rules.
    public static let minimumFigureSide = 24.0

    /// The structure the document's tagged structure tree states for those of `pages` that
    /// have content in it, in the tree's order (``StructuredText/Source/structureTree``);
    /// empty for an untagged document and for an engine that reads no structure tree
    /// (Poppler reads them; MuPDF and Ghostscript do not). How the tree's elements become
    /// headings, paragraphs, lists, tables and figures is ``StructuredText``'s to say.
    public func taggedStructure(pages: [Int]) throws -> [StructuredText.Page] {
        guard let tree = try withEngine({ document, _ in try (document as? any StructureReading)?.structureTree(pages: pages) ?? nil }) else { return [] }
        let tagged = TaggedStructure(tree: tree).pages
        return pages.compactMap { index in tagged[index].map { StructuredText.Page(index: index, elements: $0, source: .structureTree) } }
    }
}
