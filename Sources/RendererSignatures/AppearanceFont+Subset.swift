import Foundation
import RendererFonts
import RendererProvider

extension AppearanceFont {
    /// Where Debian's `fonts-dejavu-core` puts DejaVu Sans, the font a visible signature's
    /// text is drawn in when Helvetica's WinAnsiEncoding cannot hold it (Latin, Greek and
    /// Cyrillic scripts; a character it lacks draws as its missing-glyph box).
    static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// The font at `path` cut down to what `lines` show (``RendererFonts/FontFace``); nil
    /// when every character is in WinAnsiEncoding (Helvetica draws them) or the font cannot
    /// be read.
    static func subset(of path: String = dejaVuSans, for lines: [String]) -> AppearanceFont? {
        let scalars = Set(lines.flatMap(\.unicodeScalars))
        guard scalars.contains(where: { !Self.isWinAnsi($0) }), let face = try? FontFace(path: path) else { return nil }
        var glyphs: [UInt32: Glyph] = [:]
        var text: [UInt16: String] = [:]
        for scalar in scalars {
            guard let id = face.glyph(for: scalar) else { continue }
            glyphs[scalar.value] = Glyph(id: id, advance: face.advance(of: id))
            text[id] = String(Character(scalar))
        }
        guard !glyphs.isEmpty, let font = try? face.embedded(text) else { return nil }
        return AppearanceFont(name: font.name, program: font.program, glyphs: glyphs, ascent: font.ascent, descent: font.descent, capHeight: font.capHeight)
    }

    /// Whether WinAnsiEncoding holds `scalar` as the Helvetica appearance writes it (printable
    /// ASCII and Latin-1).
    static func isWinAnsi(_ scalar: Unicode.Scalar) -> Bool {
        (0x20...0x7E).contains(scalar.value) || (0xA0...0xFF).contains(scalar.value)
    }
}
