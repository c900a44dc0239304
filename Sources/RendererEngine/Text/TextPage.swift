/// The text of one page with its geometry: blocks of lines of words of characters, in
/// reading order, each with its box in page space. Build it with ``init(blocks:)`` from the
/// characters an engine reports; words are the runs of characters between whitespace.
public struct TextPage: Hashable, Sendable, Codable {
    /// The page's blocks in reading order.
    public var blocks: [TextBlock]

    /// A page of `blocks`.
    public init(blocks: [TextBlock]) {
        self.blocks = blocks
    }

    /// The characters in reading order.
    public var characters: [TextCharacter] {
        blocks.flatMap { $0.lines.flatMap { $0.characters } }
    }

    /// Every line, block after block.
    public var lines: [TextLine] { blocks.flatMap(\.lines) }
    /// Every word, line after line.
    public var words: [TextWord] { lines.flatMap(\.words) }

    /// The page's text: each line without trailing whitespace, lines joined by newlines and
    /// blocks by an empty line.
    public var text: String {
        blocks.map { block in
            block.lines.map { String($0.text.reversed().drop(while: \.isWhitespace).reversed()) }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// True when the page has no character but whitespace: a scanned page, or a blank one.
    public var isBlank: Bool { characters.allSatisfy(\.isWhitespace) }

    /// The text a selection of `rect` copies: the characters whose centre lies inside it,
    /// line by line, each line without trailing whitespace, lines joined by newlines.
    public func text(in rect: PageRect) -> String {
        lines.compactMap { line -> String? in
            // A character whose centre is inside lies in its line's box: a line whose box
            // misses the rectangle has none.
            let box = line.bounds
            guard box.maxX >= rect.minX, box.minX <= rect.maxX, box.maxY >= rect.minY, box.minY <= rect.maxY else { return nil }
            let inside = line.characters.filter { rect.contains($0.quad.bounds.center) }
            guard !inside.isEmpty else { return nil }
            let text = inside.map(\.text).joined()
            return String(text.reversed().drop(while: \.isWhitespace).reversed())
        }.joined(separator: "\n")
    }
}

/// Lines the engine grouped together, such as a paragraph or a column.
public struct TextBlock: Hashable, Sendable, Codable {
    /// The box around the block's lines.
    public var bounds: PageRect
    /// The block's lines in reading order.
    public var lines: [TextLine]

    /// A block of `lines`.
    public init(lines: [TextLine]) {
        self.lines = lines
        self.bounds = PageRect.enclosing(lines.map(\.bounds))
    }
}

/// One line of text: its characters in reading order.
public struct TextLine: Hashable, Sendable, Codable {
    /// The box around the line's characters.
    public var bounds: PageRect
    /// Every character of the line, spaces included.
    public var characters: [TextCharacter]

    /// A line of `characters`.
    public init(characters: [TextCharacter]) {
        self.characters = characters
        self.bounds = PageRect.enclosing(characters.map(\.quad.bounds))
    }

    /// The runs of characters between whitespace.
    public var words: [TextWord] {
        characters.split(whereSeparator: \.isWhitespace).map { TextWord(characters: Array($0)) }
    }

    /// The line's text.
    public var text: String { characters.map(\.text).joined() }
}

/// A run of characters between whitespace.
public struct TextWord: Hashable, Sendable, Codable {
    /// The word's text.
    public var text: String
    /// The box around the word's characters.
    public var bounds: PageRect
    /// How sure text recognition is of the word, from 0 to 100: the least of its
    /// characters'. Nil for text the document holds.
    public var confidence: Double?

    /// A word of `characters`.
    public init(characters: [TextCharacter]) {
        self.text = characters.map(\.text).joined()
        self.bounds = PageRect.enclosing(characters.map(\.quad.bounds))
        self.confidence = characters.compactMap(\.confidence).min()
    }
}

/// One character with the quadrilateral its glyph covers, in page space.
public struct TextCharacter: Hashable, Sendable, Codable {
    /// The character, as Unicode text (usually one scalar; ligatures may give more).
    public var text: String
    /// Where the glyph is: from its baseline's ascender to its descender, along the
    /// direction of the text.
    public var quad: Quad
    /// The font size in points, where the engine reports it; for recognised text, an
    /// estimate from the height of the line's letters above its baseline.
    public var fontSize: Double?
    /// The name of the font the character is set in (a subset's tag, such as `ABCDEF+`,
    /// included), where the engine reports it.
    public var fontName: String?
    /// How sure text recognition is of the character, from 0 to 100; nil for text the
    /// document holds.
    public var confidence: Double?

    /// A character as the engine, or text recognition, reported it.
    public init(text: String, quad: Quad, fontSize: Double?, fontName: String? = nil, confidence: Double? = nil) {
        self.text = text
        self.quad = quad
        self.fontSize = fontSize
        self.fontName = fontName
        self.confidence = confidence
    }

    /// True for spaces, tabs and line breaks.
    public var isWhitespace: Bool { text.allSatisfy(\.isWhitespace) }
}
