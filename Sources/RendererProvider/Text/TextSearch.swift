/// How ``Document/search(_:pageAt:options:)`` matches.
public struct SearchOptions: Hashable, Sendable {
    /// Match upper and lower case exactly (default: ignore case).
    public var caseSensitive: Bool
    /// Match only where the term is not part of a longer word (default: anywhere).
    public var wholeWord: Bool
    /// Match letters whatever accents they carry, so that "resume" finds "résumé" and
    /// "résumé" finds "resume" (default: accents must match).
    public var ignoresAccents: Bool

    /// Options; by default case-insensitive, matching within words too, accents matching.
    /// Ligatures (ﬁ, ﬀ, ...) always match the letters they join, and an accent composed with
    /// its letter matches one that follows it, whichever the engine gives.
    public init(caseSensitive: Bool = false, wholeWord: Bool = false, ignoresAccents: Bool = false) {
        self.caseSensitive = caseSensitive
        self.wholeWord = wholeWord
        self.ignoresAccents = ignoresAccents
    }
}

/// One place a search term was found.
public struct SearchHit: Hashable, Sendable, Codable {
    /// The 0-based index of the page.
    public var pageIndex: Int
    /// One quad per line the match covers, tight to its glyphs, in page space.
    public var quads: [Quad]

    /// A hit on the page at `pageIndex` covering `quads`.
    public init(pageIndex: Int, quads: [Quad]) {
        self.pageIndex = pageIndex
        self.quads = quads
    }

    /// The rectangle around all of the hit's quads.
    public var bounds: PageRect { PageRect.enclosing(quads.map(\.bounds)) }
}

/// Finds a term in a page's characters: the one search every backend shares. Runs of
/// whitespace, including the break between two lines, match any run of whitespace in the
/// term; a match may run across lines. Page and term are folded alike; a match covers the
/// whole glyphs it touches (a ligature's glyph when it matches one of its letters).
struct TextSearch {
    private struct Unit {
        var scalars: [Unicode.Scalar]
        /// `nil` for the break inserted between lines.
        var character: TextCharacter?
        var line: Int
    }

    private let term: [Unicode.Scalar]
    private let options: SearchOptions

    /// Throws `invalidArgument` for a term with nothing but whitespace.
    init(term: String, options: SearchOptions) throws {
        let words = term.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !words.isEmpty else { throw RendererError(.invalidArgument, "the search term is empty") }
        self.term = Array(Self.fold(words, options).unicodeScalars)
        self.options = options
    }

    /// Text as it is matched: folded (``TextFolding``), lowercased unless case matters.
    private static func fold(_ text: String, _ options: SearchOptions) -> String {
        let folded = TextFolding.fold(text, ignoringAccents: options.ignoresAccents)
        return options.caseSensitive ? folded : folded.lowercased()
    }

    func hits(in page: TextPage, pageIndex: Int) -> [SearchHit] {
        // The page as a sequence of scalars, each remembering the character it came from.
        var units: [Unit] = []
        for (lineNumber, line) in page.lines.enumerated() {
            if lineNumber > 0 { units.append(Unit(scalars: [" "], character: nil, line: lineNumber)) }
            for character in line.characters {
                let text = character.isWhitespace ? " " : Self.fold(character.text, options)
                units.append(Unit(scalars: Array(text.unicodeScalars), character: character, line: lineNumber))
            }
        }
        var scalars: [Unicode.Scalar] = []
        var owner: [Int] = []
        for (index, unit) in units.enumerated() where !(unit.scalars == [" "] && scalars.last == " ") {
            scalars.append(contentsOf: unit.scalars)
            owner.append(contentsOf: Array(repeating: index, count: unit.scalars.count))
        }

        var hits: [SearchHit] = []
        var start = 0
        while start + term.count <= scalars.count {
            let end = start + term.count
            if scalars[start..<end].elementsEqual(term), !options.wholeWord || isWordBoundary(scalars, start, end) {
                let matched = Set(owner[start..<end]).sorted().map { units[$0] }
                hits.append(SearchHit(pageIndex: pageIndex, quads: Self.quads(of: matched)))
                start = end
            } else {
                start += 1
            }
        }
        return hits
    }

    private func isWordBoundary(_ scalars: [Unicode.Scalar], _ start: Int, _ end: Int) -> Bool {
        func isWordScalar(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || s.properties.numericType != nil }
        let before = start == 0 || !isWordScalar(scalars[start - 1])
        let after = end == scalars.count || !isWordScalar(scalars[end])
        return before && after
    }

    /// One quad per line: from the start of the line's first matched glyph to the end of its last.
    private static func quads(of units: [Unit]) -> [Quad] {
        let characters = units.compactMap { unit in unit.character.map { (unit.line, $0) } }.filter { !$0.1.isWhitespace }
        var quads: [Quad] = []
        var index = 0
        while index < characters.count {
            let line = characters[index].0
            var last = index
            while last + 1 < characters.count, characters[last + 1].0 == line { last += 1 }
            let first = characters[index].1.quad, final = characters[last].1.quad
            quads.append(Quad(upperLeft: first.upperLeft, upperRight: final.upperRight, lowerLeft: first.lowerLeft, lowerRight: final.lowerRight))
            index = last + 1
        }
        return quads
    }
}
