import Foundation
import RendererProvider
import Testing
import TestSupport

/// Text and search on every backend, against strings, positions and counts the fixtures
/// were built with.
@Suite("Text and search, on every backend")
struct TextConformanceTests {
    @Test(arguments: Fixtures.readingBackendIDs)
    func wordsAtKnownPositions(backend: String) throws {
        let page = try Fixtures.open("text.pdf", backend: backend).textPage(pageAt: 0)
        let words = page.words
        #expect(words.map(\.text) == "The quick brown fox jumps over the lazy dog".split(separator: " ").map(String.init))
        for (expected, word) in zip(FixtureFacts.firstWords, words) {
            #expect(word.text == expected.text)
            #expect(word.bounds.isClose(to: expected.box), "\(word.text): \(word.bounds) vs \(expected.box)")
        }
        let sizes = Set(page.characters.filter { !$0.isWhitespace }.compactMap(\.fontSize))
        #expect(sizes.count == 1 && abs(sizes.first! - 12) < 0.01)
        #expect(page.lines.count == 1 && page.blocks.count == 1)
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func plainTextInReadingOrder(backend: String) throws {
        let document = try Fixtures.open("search.pdf", backend: backend)
        #expect(Fixtures.normalizedWhitespace(try document.text(pageAt: 2)) == "Banana split ends one line of text")
        #expect(Fixtures.normalizedWhitespace(try document.text(pageAt: 0)) == "Apple apple APPLE pineapple")
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func textInsideARectangle(backend: String) throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        // From the left edge of "quick" to the right edge of "brown", on the line's height.
        let selection = PageRect(x: 95, y: 62, width: 66, height: 14)
        #expect(try document.text(pageAt: 0, in: selection) == "quick brown")
        #expect(try document.text(pageAt: 0, in: PageRect(x: 0, y: 300, width: 600, height: 100)) == "")
        let twoLines = try Fixtures.open("search.pdf", backend: backend).text(pageAt: 2, in: PageRect(x: 0, y: 0, width: 612, height: 792))
        #expect(twoLines == "Banana split ends one\nline of text")
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func searchCountsWithEachOption(backend: String) throws {
        let document = try Fixtures.open("search.pdf", backend: backend)
        for (options, perPage) in FixtureFacts.appleHits {
            let counts = try (0..<3).map { try document.search("apple", pageAt: $0, options: options).count }
            #expect(counts == perPage, "\(options)")
        }
        #expect(try document.search("  APPLE   pie ", pageAt: 1).count == 1)
        #expect((#expect(throws: RendererError.self) { try document.search("  ", pageAt: 0) })?.code == .invalidArgument)
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func hitsAreTightToTheGlyphs(backend: String) throws {
        let hits = try Fixtures.open("text.pdf", backend: backend).search("quick brown", pageAt: 0)
        #expect(hits.count == 1 && hits[0].quads.count == 1)
        let expected = FixtureFacts.firstWords[1].box.union(FixtureFacts.firstWords[2].box)
        #expect(hits[0].bounds.isClose(to: expected), "\(hits[0].bounds) vs \(expected)")
        #expect(hits[0].bounds.size.height < 12, "a 12 pt line must not give a font-height box")
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func aHitAcrossTwoLinesHasAQuadPerLine(backend: String) throws {
        let hits = try Fixtures.open("search.pdf", backend: backend).search("one line", pageAt: 2)
        #expect(hits.count == 1)
        #expect(hits.first?.quads.count == 2)
        if let quads = hits.first?.quads, quads.count == 2 {
            // Second line's baseline is 20 pt below the first.
            #expect(abs(quads[1].bounds.minY - quads[0].bounds.minY - 20) < 0.5)
        }
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func wholeDocumentSearchStreamsHitsAndProgress(backend: String) async throws {
        let document = try Fixtures.open("search.pdf", backend: backend)
        var hits: [SearchHit] = []
        var progress: [Int] = []
        for try await event in try document.search("apple") {
            switch event {
            case .hit(let hit): hits.append(hit)
            case .progress(let searched, let total, let count):
                #expect(total == 3 && count == hits.count)
                progress.append(searched)
            }
        }
        #expect(hits.map(\.pageIndex) == [0, 0, 0, 0, 1, 1])
        #expect(progress == [1, 2, 3])
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func cancelledSearchStops(backend: String) async throws {
        let document = try Fixtures.open("search.pdf", backend: backend)
        let task = Task {
            var pages = 0
            for try await event in try document.search("apple") {
                if case .progress = event {
                    pages += 1
                    withUnsafeCurrentTask { $0?.cancel() }
                }
            }
            return pages
        }
        let error = await #expect(throws: RendererError.self) { try await task.value }
        #expect(error?.code == .cancelled)
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func pageTextsComePageByPage(backend: String) async throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        var pages: [PageText] = []
        for try await page in document.pageTexts([2, 0]) { pages.append(page) }
        #expect(pages.map(\.pageIndex) == [2, 0])
        #expect(pages.map { Fixtures.normalizedWhitespace($0.text) } == ["Third page", "The quick brown fox jumps over the lazy dog"])
    }
}

/// Search matches what a reader means whatever the engine gives: ligatures as the letters
/// they join, accents however they are composed, and, when asked, letters whatever their
/// accents (as pdf.js does by default).
@Suite("Search folds ligatures and accents, on every backend")
struct SearchFoldingTests {
    /// ligatures.pdf (make-fixtures.sh): "office" and "reflex" drawn with the fi and fl
    /// glyphs, which MuPDF spells out and Poppler keeps (U+FB01, U+FB02). Either spelling of
    /// the term finds the word, and the hit's box is the word's.
    @Test(arguments: Fixtures.readingBackendIDs)
    func ligaturesMatchTheirLetters(backend: String) throws {
        let document = try Fixtures.open("ligatures.pdf", backend: backend)
        let words = try document.textPage(pageAt: 0).words
        for (terms, word) in [(["office", "of\u{FB01}ce", "OFFICE"], 1), (["reflex", "re\u{FB02}ex"], 4)] {
            let box = words[word].bounds
            for term in terms {
                let hits = try document.search(term, pageAt: 0)
                #expect(hits.count == 1, "\(term)")
                let bounds = try #require(hits.first).bounds
                #expect(abs(bounds.minX - box.minX) < 0.01 && abs(bounds.maxX - box.maxX) < 0.01 && abs(bounds.minY - box.minY) < 0.01, "\(term): \(bounds) against the word's \(box)")
            }
        }
        #expect(try document.search("of\u{FB01}ce", pageAt: 0, options: SearchOptions(caseSensitive: true)).count == 1)
        #expect(try document.search("ofice", pageAt: 0).isEmpty, "a ligature is two letters")
    }

    /// "résumé" on line 2, "resume" on line 3: accents match exactly unless ignored; a term
    /// with combining accents finds the precomposed letters.
    @Test(arguments: Fixtures.readingBackendIDs)
    func accentsMatchAsAsked(backend: String) throws {
        let document = try Fixtures.open("ligatures.pdf", backend: backend)
        func lines(_ term: String, _ options: SearchOptions = SearchOptions()) throws -> [Double] {
            try document.search(term, pageAt: 0, options: options).map { ($0.bounds.minY / 30).rounded() }
        }
        #expect(try lines("résumé") == [4] && lines("RÉSUMÉ") == [4] && lines("re\u{301}sume\u{301}") == [4])
        #expect(try lines("resume") == [5])
        let ignoring = SearchOptions(ignoresAccents: true)
        #expect(try lines("resume", ignoring) == [4, 5] && lines("résumé", ignoring) == [4, 5])
        #expect(try lines("resume", SearchOptions(caseSensitive: true, wholeWord: true, ignoresAccents: true)) == [4, 5])
    }

    /// Debian's zitie-cn.pdf (texlive-lang-cjk) writes "xcoffins" with the ligature ﬀ, which
    /// MuPDF spells out and Poppler keeps: both spellings find the same hits on both engines.
    @Test func bothEnginesFindTheSameHitsInARealFile() throws {
        let file = "/usr/share/doc/texlive-doc/xelatex/zitie/zitie-cn.pdf"
        var counts: [String: Int] = [:]
        for backend in Fixtures.readingBackendIDs {
            let document = try Fixtures.conformanceRegistry.open(.file(file), renderer: .id(backend))
            for term in ["xcoffins", "xco\u{FB00}ins"] {
                counts["\(backend) \(term)"] = try (0..<document.pageCount).reduce(0) { $0 + (try document.search(term, pageAt: $1).count) }
            }
        }
        #expect(Set(counts.values).count == 1 && counts.values.first == 4, "\(counts)")
    }
}
