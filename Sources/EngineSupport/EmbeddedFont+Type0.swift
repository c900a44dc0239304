#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

extension EmbeddedFont {
    /// Writes the font as a Type 0 font (Identity-H: a two-byte code is a glyph of the
    /// program) with its widths, descriptor, program and a ToUnicode map, through `add` (a
    /// new object) and `addStream` (a new stream of a dictionary and contents); returns the
    /// font's reference. Written once for every writer: signature appearances in an
    /// incremental update, page overlays through an engine's primitives.
    package func writeType0(
        add: (PDFObject) throws -> PDFReference, addStream: ([String: PDFObject], Data) throws -> PDFReference
    ) rethrows -> PDFReference {
        let programReference = try addStream(["Length1": .integer(program.count)], program)
        let toUnicode = try addStream([:], toUnicodeMap)
        let descriptor = try add(.dictionary([
            "Type": .name("FontDescriptor"), "FontName": .name(name), "Flags": .integer(32), "ItalicAngle": .integer(0),
            "FontBBox": .array([-1000, descent, 2000, ascent].map(PDFObject.number)), "Ascent": .number(ascent),
            "Descent": .number(descent), "CapHeight": .number(capHeight), "StemV": .integer(80), "FontFile2": .reference(programReference),
        ]))
        let descendant = try add(.dictionary([
            "Type": .name("Font"), "Subtype": .name("CIDFontType2"), "BaseFont": .name(name),
            "CIDSystemInfo": .dictionary(["Registry": .text("Adobe"), "Ordering": .text("Identity"), "Supplement": .integer(0)]),
            "FontDescriptor": .reference(descriptor), "CIDToGIDMap": .name("Identity"),
            "W": .array(widths.keys.sorted().flatMap { [PDFObject.integer(Int($0)), .array([.number(widths[$0]!)])] }),
        ]))
        return try add(.dictionary([
            "Type": .name("Font"), "Subtype": .name("Type0"), "BaseFont": .name(name), "Encoding": .name("Identity-H"),
            "DescendantFonts": .array([.reference(descendant)]), "ToUnicode": .reference(toUnicode),
        ]))
    }

    /// `glyphs` as a hexadecimal string of two-byte codes, as Identity-H reads them.
    package static func codes(_ glyphs: [UInt16]) -> String {
        "<" + glyphs.map { String(printf: "%04X", $0) }.joined() + ">"
    }

    /// The ToUnicode map: each glyph with text to the text it stands for (UTF-16BE).
    private var toUnicodeMap: Data {
        let pairs = text.filter { !$0.value.isEmpty }.map { glyph, text in (glyph, text.utf16.map { String(printf: "%04X", $0) }.joined()) }
            .sorted { $0.0 < $1.0 }
        var map = """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <0000> <FFFF>
            endcodespacerange

            """
        // At most 100 mappings a block, as the CMap syntax allows.
        for start in stride(from: 0, to: pairs.count, by: 100) {
            let block = pairs[start..<min(start + 100, pairs.count)]
            map += "\(block.count) beginbfchar\n" + block.map { String(printf: "<%04X> <", $0.0) + $0.1 + ">\n" }.joined() + "endbfchar\n"
        }
        map += "endcmap\nCMapName currentdict /CIDInit /ProcSet findresource /CMap defineresource pop\nend\nend\n"
        return Data(map.utf8)
    }
}

extension AppearanceFont {
    /// The font as an ``EmbeddedFont``: each glyph's advance, and the character it draws.
    package var embedded: EmbeddedFont {
        var widths: [UInt16: Double] = [:]
        var text: [UInt16: String] = [:]
        for (scalar, glyph) in glyphs where widths[glyph.id] == nil {
            widths[glyph.id] = glyph.advance
            text[glyph.id] = Unicode.Scalar(scalar).map { String(Character($0)) } ?? " "
        }
        return EmbeddedFont(name: name, program: program, widths: widths, text: text, ascent: ascent, descent: descent, capHeight: capHeight)
    }
}
