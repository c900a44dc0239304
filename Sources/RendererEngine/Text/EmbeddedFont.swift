#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A TrueType font to embed in a document as a Type 0 font (Identity-H: a two-byte code is a
/// glyph of the program): a subset of its program that keeps the font's glyph identifiers,
/// the advance of each glyph it draws and the text each glyph stands for, so that text
/// extraction reads what it shows.
public struct EmbeddedFont: Hashable, Sendable, Codable {
    /// The font's PostScript name, with the subset's tag (`ABCDEF+Name`).
    public var name: String
    /// The subset program (a TrueType file).
    public var program: Data
    /// How far each glyph advances, in thousandths of the font size.
    public var widths: [UInt16: Double]
    /// The text each glyph stands for (its ToUnicode entry); a glyph not listed reads as nothing.
    public var text: [UInt16: String]
    /// How far the font rises above the baseline, in thousandths of the font size.
    public var ascent: Double
    /// How far it falls below the baseline (negative), in thousandths of the font size.
    public var descent: Double
    /// Its capital letters' height, in thousandths of the font size.
    public var capHeight: Double

    /// A font with every part given.
    public init(name: String, program: Data, widths: [UInt16: Double], text: [UInt16: String], ascent: Double, descent: Double, capHeight: Double) {
        self.name = name
        self.program = program
        self.widths = widths
        self.text = text
        self.ascent = ascent
        self.descent = descent
        self.capHeight = capHeight
    }
}
