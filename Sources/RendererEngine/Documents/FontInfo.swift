/// A font a document's pages use, as its font dictionary declares it (what `pdffonts`
/// lists): found in the pages' resources, the forms, patterns and Type 3 glyphs they draw,
/// and their annotations' appearances, each font dictionary once.
public struct FontInfo: Hashable, Sendable, Codable {
    /// What kind of font the dictionary declares.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A Type 1 font (`/Type1`, `/MMType1`), embedded as Type 1, CFF or OpenType or not at all.
        case type1
        /// A TrueType font.
        case trueType
        /// A Type 3 font, whose glyphs are drawn by content streams in the file.
        case type3
        /// A composite (`/Type0`) font whose glyphs are CFF or Type 1 (`/CIDFontType0`).
        case cidType0
        /// A composite (`/Type0`) font whose glyphs are TrueType (`/CIDFontType2`).
        case cidTrueType
    }

    /// The font's PostScript name (`/BaseFont`) with its subset tag, such as
    /// `ABCDEF+Times-Roman`; nil when the dictionary has none (as Type 3 fonts often).
    public var name: String?
    /// The kind of font.
    public var kind: Kind
    /// Whether the file holds the font's glyphs (a Type 3 font's always are).
    public var isEmbedded: Bool
    /// Whether only the glyphs the document uses are embedded: the name begins with a subset
    /// tag, six capital letters and `+`.
    public var isSubset: Bool

    /// A font named `name` of `kind`; whether it is a subset is read from the name.
    public init(name: String?, kind: Kind, isEmbedded: Bool) {
        self.name = name
        self.kind = kind
        self.isEmbedded = isEmbedded
        let tag = name.map { Array($0.utf8.prefix(7)) } ?? []
        isSubset = tag.count == 7 && tag[6] == UInt8(ascii: "+") && tag[..<6].allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }
}
