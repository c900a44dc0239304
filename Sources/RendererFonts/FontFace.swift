import CHarfBuzzSubset
import Foundation
import RendererEngine

/// A TrueType font file read by HarfBuzz: its metrics, its glyphs for characters, text
/// shaped into glyphs (Arabic joined, marks placed, right-to-left lines in visual order),
/// and the subset of its program a document embeds. It owns its HarfBuzz handles.
public final class FontFace: @unchecked Sendable {
    /// The file it was read from.
    public let path: String
    /// Which face of the file it is (a collection holds several).
    public let faceIndex: Int
    private let blob: OpaquePointer
    private let face: OpaquePointer
    private let font: OpaquePointer
    private let unitsPerEm: Double

    /// The font at `path` (face `index` of a collection); `invalidArgument` when the file
    /// cannot be read or holds no TrueType outlines (a document embeds those as `FontFile2`).
    public init(path: String, index: Int = 0) throws {
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            throw RendererError(.invalidArgument, "the font file \(URL(fileURLWithPath: path).lastPathComponent) cannot be read")
        }
        let face = hb_face_create(blob, UInt32(max(index, 0)))!
        let outlines = hb_face_reference_table(face, Self.tag("glyf"))
        defer { hb_blob_destroy(outlines) }
        guard hb_blob_get_length(outlines) > 0, hb_face_get_glyph_count(face) > 0 else {
            hb_face_destroy(face)
            hb_blob_destroy(blob)
            throw RendererError(.invalidArgument, "\(URL(fileURLWithPath: path).lastPathComponent) is not a TrueType font with outlines")
        }
        self.path = path
        self.faceIndex = max(index, 0)
        self.blob = blob
        self.face = face
        self.font = hb_font_create(face)
        self.unitsPerEm = Double(max(hb_face_get_upem(face), 1))
    }

    deinit {
        hb_font_destroy(font)
        hb_face_destroy(face)
        hb_blob_destroy(blob)
    }

    /// The glyph the font draws `scalar` with; nil when it has none.
    public func glyph(for scalar: Unicode.Scalar) -> UInt16? {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0, glyph <= UInt16.max else { return nil }
        return UInt16(glyph)
    }

    /// The characters of `text` the font has no glyph for.
    public func missingCharacters(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { !$0.properties.isWhitespace && $0.properties.generalCategory != .format && glyph(for: $0) == nil }
    }

    /// How far `glyph` advances, in thousandths of the font size.
    public func advance(of glyph: UInt16) -> Double {
        thousandths(hb_font_get_glyph_h_advance(font, hb_codepoint_t(glyph)))
    }

    /// How far the font rises above the baseline, falls below it (negative), and how tall
    /// its capitals are, in thousandths of the font size.
    public var metrics: (ascent: Double, descent: Double, capHeight: Double) {
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        var capHeight: hb_position_t = 0
        if hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_CAP_HEIGHT, &capHeight) == 0 { capHeight = extents.ascender }
        return (thousandths(extents.ascender), thousandths(extents.descender), thousandths(capHeight))
    }

    /// `line` shaped by HarfBuzz: its glyphs in the order they are drawn, left to right, with
    /// their advances and offsets, and the text each cluster stands for. The line is cut
    /// into runs of one direction by the Unicode bidirectional algorithm (FriBidi; the
    /// line's direction is its first strong character's), each run shaped in its direction
    /// and script, and the runs put in the order they are seen: "سري — 1/4" keeps its digits
    /// left to right inside the Arabic.
    public func shape(_ line: String) -> ShapedLine {
        let scalars = Array(line.unicodeScalars)
        let values = scalars.map(\.value)
        let runs = BidiRuns(values)
        var glyphs: [ShapedLine.Glyph] = []
        for run in runs.visualOrder {
            glyphs += shape(run.range, of: values, rightToLeft: run.rightToLeft, scalars: scalars)
        }
        return ShapedLine(glyphs: glyphs)
    }

    /// The glyphs of `range` of `values`, shaped in one direction with the rest of the line
    /// as context; clusters are indices into the whole line.
    private func shape(_ range: Range<Int>, of values: [UInt32], rightToLeft: Bool, scalars: [Unicode.Scalar]) -> [ShapedLine.Glyph] {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf32(buffer, values, Int32(values.count), UInt32(range.lowerBound), Int32(range.count))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        guard let infos, let positions, count > 0 else { return [] }
        let clusters = Set((0..<Int(count)).map { Int(infos[$0].cluster) }).sorted()
        var glyphs: [ShapedLine.Glyph] = []
        var named = Set<Int>()
        for index in 0..<Int(count) {
            let cluster = Int(infos[index].cluster)
            // The first glyph of a cluster stands for its characters; a ligature's for all of them.
            var text = ""
            if named.insert(cluster).inserted {
                let end = min(clusters.first { $0 > cluster } ?? range.upperBound, range.upperBound)
                text = String(String.UnicodeScalarView(scalars[min(cluster, end)..<end]))
            }
            let id = UInt16(clamping: infos[index].codepoint)
            glyphs.append(ShapedLine.Glyph(
                id: id, advance: thousandths(positions[index].x_advance), nominalAdvance: advance(of: id),
                offsetX: thousandths(positions[index].x_offset), offsetY: thousandths(positions[index].y_offset), text: text))
        }
        return glyphs
    }

    /// The font cut down to `glyphs` (their identifiers kept), with each glyph's advance and
    /// the text it stands for, to embed; `invalidArgument` when HarfBuzz cannot cut it.
    public func embedded(_ glyphs: [UInt16: String]) throws -> EmbeddedFont {
        guard let input = hb_subset_input_create_or_fail() else { throw RendererError(.invalidArgument, "HarfBuzz cannot subset fonts here") }
        defer { hb_subset_input_destroy(input) }
        for glyph in glyphs.keys { hb_set_add(hb_subset_input_glyph_set(input), hb_codepoint_t(glyph)) }
        hb_subset_input_set_flags(input, UInt32(HB_SUBSET_FLAGS_RETAIN_GIDS.rawValue))
        guard let cut = hb_subset_or_fail(face, input) else {
            throw RendererError(.invalidArgument, "\(URL(fileURLWithPath: path).lastPathComponent) cannot be subset (its license may forbid it)")
        }
        defer { hb_face_destroy(cut) }
        let program = hb_face_reference_blob(cut)
        defer { hb_blob_destroy(program) }
        var length: UInt32 = 0
        guard let bytes = hb_blob_get_data(program, &length), length > 0 else {
            throw RendererError(.invalidArgument, "\(URL(fileURLWithPath: path).lastPathComponent) cannot be subset")
        }
        let (ascent, descent, capHeight) = metrics
        return EmbeddedFont(
            name: Self.subsetTag(for: Array(glyphs.keys)) + "+" + postScriptName, program: Data(bytes: bytes, count: Int(length)),
            widths: Dictionary(uniqueKeysWithValues: glyphs.keys.map { ($0, advance(of: $0)) }), text: glyphs,
            ascent: ascent, descent: descent, capHeight: capHeight)
    }

    /// The font's PostScript name (its `name` table's entry 6), else the file's name; only
    /// letters, digits and hyphens, as a PDF font name holds them.
    public var postScriptName: String {
        var buffer = [CChar](repeating: 0, count: 64)
        var size = UInt32(buffer.count)
        let length = hb_ot_name_get_utf8(face, hb_ot_name_id_t(HB_OT_NAME_ID_POSTSCRIPT_NAME), hb_language_get_default(), &size, &buffer)
        let name = length > 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return String(name.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" })
    }

    /// The six capital letters a subset's name begins with, the same for the same glyphs.
    private static func subsetTag(for glyphs: [UInt16]) -> String {
        var hash: UInt64 = 1469598103934665603
        for glyph in glyphs.sorted() { hash = (hash ^ UInt64(glyph)) &* 1099511628211 }
        return String((0..<6).map { index in Character(Unicode.Scalar(UInt8(65 + (hash >> (UInt64(index) * 5)) % 26))) })
    }

    private func thousandths(_ units: Int32) -> Double { Double(units) * 1000 / unitsPerEm }

    private static func tag(_ text: String) -> hb_tag_t {
        text.utf8.reduce(0) { ($0 << 8) | hb_tag_t($1) }
    }
}

/// A line of text shaped into a font's glyphs.
public struct ShapedLine: Hashable, Sendable {
    /// A glyph as drawn: its advance and offsets in thousandths of the font size.
    public struct Glyph: Hashable, Sendable {
        /// The glyph's identifier in the font.
        public var id: UInt16
        /// How far the pen moves after it.
        public var advance: Double
        /// Its own advance in the font, which an embedded copy's widths hold
        /// (``FontFace/advance(of:)``); shaping may move the pen by another.
        public var nominalAdvance: Double
        /// How far it is drawn from the pen, across.
        public var offsetX: Double
        /// How far it is drawn from the pen, up (a mark above or below its letter).
        public var offsetY: Double
        /// The characters it stands for: its cluster's, on the cluster's first glyph; empty
        /// on the others (marks, the rest of a split character).
        public var text: String
    }

    /// The glyphs, left to right as drawn.
    public var glyphs: [Glyph]

    /// How wide the line is, in thousandths of the font size.
    public var width: Double { glyphs.reduce(0) { $0 + $1.advance } }
}
