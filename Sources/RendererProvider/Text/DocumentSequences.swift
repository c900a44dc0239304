/// The text of one page, from ``Document/pageTexts(_:)``.
public struct PageText: Hashable, Sendable {
    /// The 0-based index of the page.
    public var pageIndex: Int
    /// The page's text.
    public var text: String
}

/// The text of a document's pages, read one page per step on ``EngineThreads``; see
/// ``Document/pageTexts(_:)``.
public struct PageTexts: AsyncSequence, Sendable {
    public typealias Element = PageText
    let document: Document
    let pages: [Int]

    public struct AsyncIterator: AsyncIteratorProtocol {
        let document: Document
        let pages: [Int]
        var position = 0

        public mutating func next() async throws -> PageText? {
            guard position < pages.count else { return nil }
            let index = pages[position]
            position += 1
            return PageText(pageIndex: index, text: try await document.text(pageAt: index, on: .shared))
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(document: document, pages: pages)
    }
}

/// What a running search reports.
public enum SearchEvent: Hashable, Sendable {
    /// A match, as soon as its page has been searched.
    case hit(SearchHit)
    /// A page was searched: how many of how many, and the hits so far.
    case progress(pagesSearched: Int, pageCount: Int, hitCount: Int)
}

/// A search over many pages, one page per step on ``EngineThreads``; see
/// ``Document/search(_:options:pages:)``.
public struct SearchResults: AsyncSequence, Sendable {
    public typealias Element = SearchEvent
    let document: Document
    let search: TextSearch
    let pages: [Int]

    public struct AsyncIterator: AsyncIteratorProtocol {
        let document: Document
        let search: TextSearch
        let pages: [Int]
        var position = 0
        var hitCount = 0
        var pending: [SearchEvent] = []

        public mutating func next() async throws -> SearchEvent? {
            if !pending.isEmpty { return pending.removeFirst() }
            guard position < pages.count else { return nil }
            let index = pages[position]
            position += 1
            let hits = search.hits(in: try await document.textPage(pageAt: index, on: .shared), pageIndex: index)
            hitCount += hits.count
            pending = hits.map(SearchEvent.hit) + [.progress(pagesSearched: position, pageCount: pages.count, hitCount: hitCount)]
            return pending.removeFirst()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(document: document, search: search, pages: pages)
    }
}
