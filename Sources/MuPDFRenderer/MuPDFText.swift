import CMuPDF
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

#if canImport(Glibc)
import Glibc
#endif

extension MuPDFPage {
    func plainText() throws -> String {
        var error = cmupdf_error()
        guard let text = cmupdf_page_plain_text(document.handle, handle, &error) else {
            throw MuPDFErrors.translate(error, doing: "extract the text of page \(index + 1)", code: .damaged)
        }
        defer { free(text) }
        return String(cString: text)
    }

    func textPage() throws -> TextPage {
        var text = cmupdf_text()
        var error = cmupdf_error()
        guard cmupdf_page_text(document.handle, handle, &text, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "extract the text of page \(index + 1)", code: .damaged)
        }
        defer { cmupdf_text_free(&text) }
        let characters = UnsafeBufferPointer(start: text.chars, count: Int(text.count))
        let fonts = UnsafeBufferPointer(start: text.fonts, count: Int(text.font_count)).map { font in
            withUnsafeBytes(of: font.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        var blocks: [TextBlock] = []
        var lines: [TextLine] = []
        var line: [TextCharacter] = []
        for (position, c) in characters.enumerated() {
            line.append(TextCharacter(
                text: String(UnicodeScalar(UInt32(c.codepoint)).map(Character.init) ?? "\u{FFFD}"),
                quad: Quad(
                    upperLeft: PagePoint(x: Double(c.ulx), y: Double(c.uly)), upperRight: PagePoint(x: Double(c.urx), y: Double(c.ury)),
                    lowerLeft: PagePoint(x: Double(c.llx), y: Double(c.lly)), lowerRight: PagePoint(x: Double(c.lrx), y: Double(c.lry))),
                fontSize: Double(c.size), fontName: fonts.indices.contains(Int(c.font)) ? fonts[Int(c.font)] : nil))
            let next = position + 1 < characters.count ? characters[position + 1] : nil
            if next?.line != c.line {
                lines.append(TextLine(characters: line))
                line = []
            }
            if next?.block != c.block {
                blocks.append(TextBlock(lines: lines))
                lines = []
            }
        }
        return TextPage(blocks: blocks)
    }
}
