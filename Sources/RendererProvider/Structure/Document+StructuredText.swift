extension Document {
    /// The structure of the pages' text: headings with their levels, paragraphs (joined
    /// across line breaks and hyphenation), lists and tables, in reading order (columns read
    /// down before across).
    ///
    /// It is inferred from the layout of each page's ``textPage(pageAt:)`` (so a page that
    /// ``textRecognition`` reads is read first): font sizes and weights, gaps, indentation and
    /// the alignment of table cells. Heading levels rank the heading sizes found on the pages
    /// asked for, so the same heading may get another level when fewer pages are asked.
    ///
    /// - Parameters:
    ///   - pages: The page indices, from 0, in the order wanted; every page when nil.
    ///   - cancellation: Checked between pages.
    /// - Throws: `RendererError` with `.pageOutOfRange` for an index past the end, or what
    ///   reading a page's text throws.
    public func structuredText(pages: [Int]? = nil, cancellation: Cancellation? = nil) throws -> StructuredText {
        let indices = pages ?? Array(0..<pageCount)
        var textPages: [TextPage] = []
        for index in indices {
            try cancellation?.check()
            textPages.append(try textPage(pageAt: index))
        }
        return StructuredText(inferringFrom: zip(indices, textPages).map { (index: $0, page: $1) })
    }
}
