/// The text of one page with its geometry: blocks of lines of words of characters, in
/// reading order, each with its box in page space. Build it with ``init(lines:)`` from the
/// characters an engine reports; words are the runs of characters between whitespace.
public struct TextPage: Hashable, Sendable, Codable {
    public var blocks: [TextBlock]

    public init(blocks: [TextBlock]) {
        self.blocks = blocks
    }

    /// The characters in reading order.
    public var characters: [TextCharacter] {
        blocks.flatMap { $0.lines.flatMap { $0.characters } }
    }

    public var lines: [TextLine] { blocks.flatMap(\.lines) }
    public var words: [TextWord] { lines.flatMap(\.words) }

    /// The text a selection of `rect` copies: the characters whose centre lies inside it,
    /// line by line, each line without trailing whitespace, lines joined by newlines.
    public func text(in rect: PageRect) -> String {
        lines.compactMap { line -> String? in
            let inside = line.characters.filter { rect.contains($0.quad.bounds.center) }
            guard !inside.isEmpty else { return nil }
            let text = inside.map(\.text).joined()
            return String(text.reversed().drop(while: \.isWhitespace).reversed())
        }.joined(separator: "\n")
    }
}

public struct TextBlock: Hashable, Sendable, Codable {
    public var bounds: PageRect
    public var lines: [TextLine]

    public init(lines: [TextLine]) {
        self.lines = lines
        self.bounds = PageRect.enclosing(lines.map(\.bounds))
    }
}

public struct TextLine: Hashable, Sendable, Codable {
    public var bounds: PageRect
    /// Every character of the line, spaces included.
    public var characters: [TextCharacter]

    public init(characters: [TextCharacter]) {
        self.characters = characters
        self.bounds = PageRect.enclosing(characters.map(\.quad.bounds))
    }

    /// The runs of characters between whitespace.
    public var words: [TextWord] {
        characters.split(whereSeparator: \.isWhitespace).map { TextWord(characters: Array($0)) }
    }

    public var text: String { characters.map(\.text).joined() }
}

public struct TextWord: Hashable, Sendable, Codable {
    public var text: String
    public var bounds: PageRect

    public init(characters: [TextCharacter]) {
        self.text = characters.map(\.text).joined()
        self.bounds = PageRect.enclosing(characters.map(\.quad.bounds))
    }
}

public struct TextCharacter: Hashable, Sendable, Codable {
    /// The character, as Unicode text (usually one scalar; ligatures may give more).
    public var text: String
    /// Where the glyph is: from its baseline's ascender to its descender, along the
    /// direction of the text.
    public var quad: Quad
    /// The font size in points, where the engine reports it.
    public var fontSize: Double?

    public init(text: String, quad: Quad, fontSize: Double?) {
        self.text = text
        self.quad = quad
        self.fontSize = fontSize
    }

    public var isWhitespace: Bool { text.allSatisfy(\.isWhitespace) }
}
