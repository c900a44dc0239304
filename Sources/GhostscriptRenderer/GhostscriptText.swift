import Foundation
import RendererEngine

/// Reads the XML that Ghostscript's txtwrite device writes with `-dTextFormat=1`: blocks of
/// lines of spans (a font and size), each character with `bbox="x0 y0 x1 y1"`, the stretch of
/// its baseline in points from the page's top-left corner, and its text in `c`.
///
/// txtwrite gives a character's baseline and advance, not its glyph's height, so each quad
/// reaches 0.718 of the font size above the baseline and 0.207 below, Helvetica's ascender
/// and descender, "above" being the page's up turned by its rotation: looser or
/// tighter than the engines that read the font's ascender. Along text that is not
/// horizontal on the displayed page, txtwrite gives every character the whole span's
/// baseline; the span is then shared out evenly among its characters.
enum GhostscriptText {
    /// The text page for the txtwrite XML `xml` of a page turned by `rotation`.
    static func page(from xml: Data, rotation: PageRotation) throws -> TextPage {
        var blocks: [TextBlock] = []
        var lines: [TextLine] = []
        var characters: [TextCharacter] = []
        var span: [(text: String, baseline: [Double])] = []
        var size = 0.0
        func endSpan() {
            characters += quads(of: span, size: size, rotation: rotation)
            span = []
        }
        for line in String(decoding: xml, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let tag = line.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("<span ") {
                endSpan()
                size = attribute("size", in: tag).flatMap(Double.init) ?? 0
            } else if tag.hasPrefix("<char "), let box = attribute("bbox", in: tag), let text = attribute("c", in: tag) {
                let numbers = box.split(separator: " ").compactMap { Double($0) }
                guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else { continue }
                span.append((unescaped(text), numbers))
            } else if tag == "</span>" {
                endSpan()
            } else if tag == "</line>" {
                endSpan()
                if !characters.isEmpty { lines.append(TextLine(characters: characters)) }
                characters = []
            } else if tag == "</block>" {
                if !lines.isEmpty { blocks.append(TextBlock(lines: lines)) }
                lines = []
            }
        }
        return TextPage(blocks: blocks)
    }

    /// The span's characters with their quads: each on its own stretch of baseline, or on an
    /// even share of the span's when txtwrite gave them all the same one.
    private static func quads(of span: [(text: String, baseline: [Double])], size: Double, rotation: PageRotation) -> [TextCharacter] {
        guard let first = span.first else { return [] }
        let shared = span.count > 1 && span.allSatisfy { $0.baseline == first.baseline }
        let (up, down) = (0.718 * size, 0.207 * size)
        return span.enumerated().map { index, character in
            var b = character.baseline
            if shared {
                let (from, to) = (Double(index) / Double(span.count), Double(index + 1) / Double(span.count))
                b = [first.baseline[0] + (first.baseline[2] - first.baseline[0]) * from, first.baseline[1] + (first.baseline[3] - first.baseline[1]) * from,
                     first.baseline[0] + (first.baseline[2] - first.baseline[0]) * to, first.baseline[1] + (first.baseline[3] - first.baseline[1]) * to]
            }
            let (minX, maxX, minY, maxY) = (min(b[0], b[2]), max(b[0], b[2]), min(b[1], b[3]), max(b[1], b[3]))
            let rect: PageRect
            switch rotation {
            case .none: rect = PageRect(x: minX, y: minY - up, width: maxX - minX, height: maxY - minY + up + down)
            case .half: rect = PageRect(x: minX, y: minY - down, width: maxX - minX, height: maxY - minY + up + down)
            case .quarter: rect = PageRect(x: minX - down, y: minY, width: maxX - minX + up + down, height: maxY - minY)
            case .threeQuarters: rect = PageRect(x: minX - up, y: minY, width: maxX - minX + up + down, height: maxY - minY)
            }
            return TextCharacter(text: character.text, quad: Quad(rect), fontSize: size > 0 ? size : nil)
        }
    }

    /// The value of `name="…"` in `tag`, still escaped.
    private static func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    /// `text` with XML's character references and the five named entities replaced.
    private static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let hex = entity.hasPrefix("#x") || entity.hasPrefix("#X")
                let digits = entity.dropFirst(hex ? 2 : 1)
                if entity.hasPrefix("#"), let value = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += rest[ampersand...semicolon]
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
