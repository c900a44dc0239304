import CHarfBuzzSubset
import Foundation
import RendererProvider

extension AppearanceFont {
    /// Where Debian's `fonts-dejavu-core` puts DejaVu Sans, the font a visible signature's
    /// text is drawn in when Helvetica's WinAnsiEncoding cannot hold it (Latin, Greek and
    /// Cyrillic scripts; a character it lacks draws as its missing-glyph box).
    static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// The font at `path` cut down to what `lines` show, read by HarfBuzz; nil when every
    /// character is in WinAnsiEncoding (Helvetica draws them) or the font cannot be read.
    static func subset(of path: String = dejaVuSans, for lines: [String]) -> AppearanceFont? {
        let scalars = Set(lines.flatMap(\.unicodeScalars))
        guard scalars.contains(where: { !Self.isWinAnsi($0) }), let blob = hb_blob_create_from_file_or_fail(path) else { return nil }
        defer { hb_blob_destroy(blob) }
        let face = hb_face_create(blob, 0)
        let font = hb_font_create(face)
        let input = hb_subset_input_create_or_fail()
        defer {
            hb_subset_input_destroy(input)
            hb_font_destroy(font)
            hb_face_destroy(face)
        }
        let unitsPerEm = Double(max(hb_face_get_upem(face), 1))
        let thousandths = { (units: Int32) in Double(units) * 1000 / unitsPerEm }
        var glyphs: [UInt32: Glyph] = [:]
        for scalar in scalars {
            var glyph: hb_codepoint_t = 0
            guard hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0, glyph <= UInt16.max else { continue }
            glyphs[scalar.value] = Glyph(id: UInt16(glyph), advance: thousandths(hb_font_get_glyph_h_advance(font, glyph)))
            hb_set_add(hb_subset_input_unicode_set(input), scalar.value)
        }
        guard let input, !glyphs.isEmpty else { return nil }
        hb_subset_input_set_flags(input, UInt32(HB_SUBSET_FLAGS_RETAIN_GIDS.rawValue))
        guard let cut = hb_subset_or_fail(face, input) else { return nil }
        defer { hb_face_destroy(cut) }
        let program = hb_face_reference_blob(cut)
        defer { hb_blob_destroy(program) }
        var length: UInt32 = 0
        guard let bytes = hb_blob_get_data(program, &length), length > 0 else { return nil }

        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        var capHeight: hb_position_t = 0
        if hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_CAP_HEIGHT, &capHeight) == 0 { capHeight = extents.ascender }
        return AppearanceFont(
            name: Self.tag(for: glyphs.values.map(\.id)) + "+" + postScriptName(of: face, path: path), program: Data(bytes: bytes, count: Int(length)),
            glyphs: glyphs, ascent: thousandths(extents.ascender), descent: thousandths(extents.descender), capHeight: thousandths(capHeight))
    }

    /// Whether WinAnsiEncoding holds `scalar` as the Helvetica appearance writes it (printable
    /// ASCII and Latin-1).
    static func isWinAnsi(_ scalar: Unicode.Scalar) -> Bool {
        (0x20...0x7E).contains(scalar.value) || (0xA0...0xFF).contains(scalar.value)
    }

    /// The font's PostScript name (its `name` table's entry 6), else the file's name.
    private static func postScriptName(of face: OpaquePointer?, path: String) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        var size = UInt32(buffer.count)
        let length = hb_ot_name_get_utf8(face, hb_ot_name_id_t(HB_OT_NAME_ID_POSTSCRIPT_NAME), hb_language_get_default(), &size, &buffer)
        let name = length > 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return String(name.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" })
    }

    /// The six capital letters a subset's name begins with, the same for the same glyphs.
    private static func tag(for glyphs: [UInt16]) -> String {
        var hash: UInt64 = 1469598103934665603
        for glyph in glyphs.sorted() { hash = (hash ^ UInt64(glyph)) &* 1099511628211 }
        return String((0..<6).map { index in Character(Unicode.Scalar(UInt8(65 + (hash >> (UInt64(index) * 5)) % 26))) })
    }
}
