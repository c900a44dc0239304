import Foundation
import RendererFonts
import RendererProvider

/// Lays text stamps out on pages: fills in each page's text, finds the font, shapes the
/// lines, places them by the page's crop box and rotation (a stamp stands upright as the
/// page is shown), and writes the content that draws them.
struct TextStampLayout {
    /// The document's page count.
    var pageCount: Int
    /// Each page's space, by index.
    var pageSpace: (Int) throws -> PageSpace

    /// The overlays that draw `stamps`, their fonts subset to the glyphs they show.
    func overlays(for stamps: [TextStamp]) throws -> PageOverlays {
        var faces: [String: (index: Int, face: FontFace)] = [:]
        var glyphs: [[UInt16: String]] = []
        var overlays: [PageOverlay] = []
        for stamp in stamps {
            try Self.check(stamp)
            // Each page once, in the order given: a request cannot stamp a page over and over.
            var seen = Set<Int>()
            let pages = (stamp.pages ?? Array(0..<pageCount)).filter { seen.insert($0).inserted }
            for page in pages where !(0..<pageCount).contains(page) {
                throw RendererError(.pageOutOfRange, "page index \(page) is out of range: the document has \(pageCount) pages")
            }
            let texts = pages.enumerated().map { stamp.text(pageIndex: $0.element, ordinal: $0.offset, pageCount: pageCount) }
            let face = try Self.face(for: stamp, texts: texts)
            let key = "\(face.faceIndex) \(face.path)"
            let fontIndex = faces[key, default: (faces.count, face)].index
            if fontIndex == glyphs.count {
                faces[key] = (fontIndex, face)
                glyphs.append([:])
            }
            for (page, text) in zip(pages, texts) {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { face.shape(String($0)) }
                for glyph in lines.flatMap(\.glyphs) where glyphs[fontIndex][glyph.id, default: ""].isEmpty {
                    glyphs[fontIndex][glyph.id] = glyph.text
                }
                let contents = try drawing(lines, of: stamp, font: fontIndex, metrics: face.metrics, on: pageSpace(page))
                overlays.append(PageOverlay(pageIndex: page, contents: contents, opacity: stamp.color.alpha, placement: stamp.placement))
            }
        }
        let fonts = try faces.values.sorted { $0.index < $1.index }.map { try $0.face.embedded(glyphs[$0.index]) }
        return PageOverlays(fonts: fonts, overlays: overlays)
    }

    /// Refuses a stamp that cannot be drawn, before anything is read.
    private static func check(_ stamp: TextStamp) throws {
        func refuse(_ message: String) -> RendererError { RendererError(.invalidArgument, message) }
        guard !stamp.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw refuse("a stamp's text is empty") }
        guard stamp.text.count <= 10_000 else { throw refuse("a stamp's text is at most 10,000 characters") }
        if let size = stamp.fontSize, !(size >= 1 && size <= TextStamp.maximumFontSize) {
            throw refuse("a stamp's font size is 1 to \(Int(TextStamp.maximumFontSize)) points, not \(size)")
        }
        guard (0...1).contains(stamp.color.alpha), [stamp.color.red, stamp.color.green, stamp.color.blue].allSatisfy({ (0...1).contains($0) }) else {
            throw refuse("a stamp's colour components and opacity are 0 to 1")
        }
        guard stamp.rotation.isFinite, stamp.margin.isFinite, stamp.margin >= 0 else { throw refuse("a stamp's rotation and margin are finite, its margin not negative") }
        if stamp.text.contains("{bates}"), stamp.bates == nil { throw refuse("the stamp's text has {bates} but no Bates numbering is given") }
        if let bates = stamp.bates, !(0...999_999_999_999).contains(bates.start) || !(1...18).contains(bates.digits) || bates.prefix.count > 100 {
            throw refuse("Bates numbers start at 0 to 999,999,999,999, have 1 to 18 digits and a prefix of at most 100 characters")
        }
    }

    /// The font given, which must draw every character of `texts`, or the installed one
    /// that does.
    private static func face(for stamp: TextStamp, texts: [String]) throws -> FontFace {
        let all = Set(texts.flatMap(\.unicodeScalars)).map(String.init).joined()
        guard let path = stamp.fontPath else { return try FontFace.covering(all) }
        let face = try FontFace(path: path)
        let missing = face.missingCharacters(in: all)
        guard missing.isEmpty else {
            let listed = missing.prefix(8).map { String(format: "U+%04X", $0.value) }.joined(separator: ", ")
            throw RendererError(.invalidArgument, "\(URL(fileURLWithPath: path).lastPathComponent) does not draw every character of the text (\(listed))")
        }
        return face
    }

    /// The content that draws `lines` of `stamp` on a page of `space`, in font `/F<font>`.
    private func drawing(
        _ lines: [ShapedLine], of stamp: TextStamp, font: Int, metrics: (ascent: Double, descent: Double, capHeight: Double), on space: PageSpace
    ) throws -> Data {
        let turned = space.rotation == .quarter || space.rotation == .threeQuarters
        let (boxWidth, boxHeight) = (space.cropBox.x1 - space.cropBox.x0, space.cropBox.y1 - space.cropBox.y0)
        let (width, height) = turned ? (boxHeight, boxWidth) : (boxWidth, boxHeight)
        let angle = stamp.rotation * .pi / 180
        // The stamp's frame, y up, as the page is shown (y down).
        let along = (x: cos(angle), y: -sin(angle)), up = (x: -sin(angle), y: -cos(angle))
        let widest = max(lines.map(\.width).max() ?? 0, 1) / 1000
        let lineSpacing = 1.2
        let size: Double
        if let given = stamp.fontSize {
            size = given
        } else if stamp.position == .center {
            // As large as fits: the widest line across 80 % of the page along the stamp's
            // direction, the lines across 80 % of it the other way.
            let span = { (direction: (x: Double, y: Double)) in
                2 * min(abs(direction.x) > 1e-9 ? width / 2 / abs(direction.x) : .infinity, abs(direction.y) > 1e-9 ? height / 2 / abs(direction.y) : .infinity)
            }
            size = min(TextStamp.maximumFontSize, 0.8 * span(along) / widest, 0.8 * span(up) / (Double(lines.count) * lineSpacing))
        } else {
            size = 10
        }
        let lineHeight = size * lineSpacing
        let blockHeight = Double(lines.count - 1) * lineHeight
        // The anchor on the shown page and the first line's baseline from it, up the frame.
        let anchorX: Double
        switch (stamp.position, stamp.alignment) {
        case (.center, _), (_, .center): anchorX = width / 2
        case (_, .left): anchorX = stamp.margin
        case (_, .right): anchorX = width - stamp.margin
        }
        let anchor: (x: Double, y: Double)
        let firstBaseline: Double
        switch stamp.position {
        case .center:
            anchor = (anchorX, height / 2)
            firstBaseline = blockHeight / 2 - size * metrics.capHeight / 2000
        case .top:
            anchor = (anchorX, stamp.margin)
            firstBaseline = -size * metrics.ascent / 1000
        case .bottom:
            anchor = (anchorX, height - stamp.margin)
            firstBaseline = blockHeight - size * metrics.descent / 1000
        }
        let origin = space.userPoint(PagePoint(x: 0, y: 0))
        let user = { (x: Double, y: Double) -> (x: Double, y: Double) in
            let point = space.userPoint(PagePoint(x: x, y: y))
            return (point.x - origin.x, point.y - origin.y)
        }
        let (alongUser, upUser) = (user(along.x, along.y), user(up.x, up.y))
        let number = { (value: Double) in value.decimalText(places: 3) }
        var content = "/GS0 gs BT /F\(font) \(number(size)) Tf \(number(stamp.color.red)) \(number(stamp.color.green)) \(number(stamp.color.blue)) rg\n"
        for (index, line) in lines.enumerated() where !line.glyphs.isEmpty {
            let lineWidth = line.width / 1000 * size
            let startX: Double
            switch stamp.alignment {
            case .center: startX = -lineWidth / 2
            case .left: startX = stamp.position == .center ? -widest * size / 2 : 0
            case .right: startX = (stamp.position == .center ? widest * size / 2 : 0) - lineWidth
            }
            let baseline = firstBaseline - Double(index) * lineHeight
            let shown = (x: anchor.x + startX * along.x + baseline * up.x, y: anchor.y + startX * along.y + baseline * up.y)
            let start = space.userPoint(PagePoint(x: shown.x, y: shown.y))
            let matrix = [alongUser.x, alongUser.y, upUser.x, upUser.y, start.x, start.y].map(number).joined(separator: " ")
            content += "\(matrix) Tm \(Self.glyphRun(line, size: size))"
        }
        content += "ET\n"
        return Data(content.utf8)
    }

    /// The operators that show `line`'s glyphs at their HarfBuzz positions: a `TJ` array of
    /// two-byte codes, moved by the difference between each glyph's own advance and the
    /// shaped one, and raised (`Ts`) where a mark sits above or below.
    private static func glyphRun(_ line: ShapedLine, size: Double) -> String {
        let number = { (value: Double) in value.decimalText(places: 2) }
        var out = ""
        var run: [String] = []
        var rise = 0.0
        func flush() {
            if !run.isEmpty { out += "[" + run.joined(separator: " ") + "] TJ\n" }
            run = []
        }
        for glyph in line.glyphs {
            if glyph.offsetY != rise {
                flush()
                rise = glyph.offsetY
                out += "\(number(rise / 1000 * size)) Ts\n"
            }
            if glyph.offsetX != 0 { run.append(number(-glyph.offsetX)) }
            run.append(String(format: "<%04X>", glyph.id))
            let correction = glyph.nominalAdvance - glyph.advance + glyph.offsetX
            if abs(correction) > 0.001 { run.append(number(correction)) }
        }
        flush()
        if rise != 0 { out += "0 Ts\n" }
        return out
    }
}
