extension Document {
    /// Every place `term` occurs on `pages` (default: all), handed to `found` in page order
    /// and reading order on the calling thread, with the pages read by `batch.jobs` workers
    /// as ``forEachPage(_:options:work:deliver:)`` does: the hits are those of a one-job
    /// search, page by page. Progress is reported once per page searched; cancelling stops
    /// the search with `cancelled`. Returns the number of hits.
    @discardableResult
    public func search(
        _ term: String, options: SearchOptions = SearchOptions(), pages: [Int]? = nil, batch: BatchOptions,
        found: (SearchHit) throws -> Void
    ) throws -> Int {
        try require(.text)
        let search = try TextSearch(term: term, options: options)
        var count = 0
        try forEachPage(pages ?? Array(0..<pageCount), options: batch) { document, index in
            search.hits(in: try document.textPage(pageAt: index), pageIndex: index)
        } deliver: { _, hits in
            for hit in hits { try found(hit) }
            count += hits.count
        }
        return count
    }
}
