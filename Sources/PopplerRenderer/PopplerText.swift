import CPopplerGlib
import RendererEngine

extension PopplerPage {
    /// Taken from poppler's C++ API, which writes text as pdftotext does; poppler-glib's
    /// own text is selection text, which spaces and orders some pages differently.
    func plainText() throws -> String {
        guard let text = document.logging({ document.core.text(ofPage: index) }) else {
            throw PopplerErrors.pageFailure(index, doing: "extract the text of")
        }
        return text
    }

    /// Poppler gives the page's text with one rectangle per character (line breaks
    /// included) and font attributes per range of characters; lines are the runs between
    /// line breaks, and an empty line separates blocks.
    func textPage() throws -> TextPage {
        let page = try handle
        guard let raw = document.logging({ poppler_page_get_text(page) }) else { return TextPage(blocks: []) }
        defer { g_free(raw) }
        let scalars = Array(String(cString: raw).unicodeScalars)
        var rectangles: UnsafeMutablePointer<PopplerRectangle>?
        var count: guint = 0
        guard poppler_page_get_text_layout(page, &rectangles, &count) != 0, let rectangles else { return TextPage(blocks: []) }
        defer { g_free(rectangles) }
        let fonts = fonts(of: page, count: scalars.count)

        var blocks: [TextBlock] = []
        var lines: [TextLine] = []
        var line: [TextCharacter] = []
        for (i, scalar) in scalars.enumerated() where i < Int(count) {
            if scalar == "\n" {
                if line.isEmpty {
                    if !lines.isEmpty { blocks.append(TextBlock(lines: lines)) }
                    lines = []
                } else {
                    lines.append(TextLine(characters: line))
                    line = []
                }
                continue
            }
            let r = rectangles[i]
            let rect = PageRect(x: r.x1, y: r.y1, width: r.x2 - r.x1, height: r.y2 - r.y1)
            line.append(TextCharacter(text: String(Character(scalar)), quad: Quad(rect), fontSize: fonts[i]?.size, fontName: fonts[i]?.name))
        }
        if !line.isEmpty { lines.append(TextLine(characters: line)) }
        if !lines.isEmpty { blocks.append(TextBlock(lines: lines)) }
        return TextPage(blocks: blocks)
    }

    /// The font size and name of each character, from Poppler's text attributes (one
    /// string per range, shared by its characters).
    private func fonts(of page: OpaquePointer, count: Int) -> [(size: Double, name: String?)?] {
        var fonts = [(size: Double, name: String?)?](repeating: nil, count: count)
        let list = poppler_page_get_text_attributes(page)
        defer { poppler_page_free_text_attributes(list) }
        var node = list
        while let current = node {
            let attributes = current.pointee.data.assumingMemoryBound(to: PopplerTextAttributes.self).pointee
            let start = max(0, Int(attributes.start_index)), end = min(count - 1, Int(attributes.end_index))
            if start <= end {
                let font = (size: attributes.font_size, name: attributes.font_name.map { String(cString: $0) })
                for i in start...end { fonts[i] = font }
            }
            node = current.pointee.next
        }
        return fonts
    }
}
