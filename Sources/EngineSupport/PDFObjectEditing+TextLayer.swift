#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// An invisible text layer written over a page, written once over the PDF-object primitives:
/// what makes a scanned page searchable and selectable once its text has been recognised.
extension PDFObjectEditing {
    /// Writes each page's words (`layers`, by page index) into its content as invisible text
    /// (rendering mode 3): each word in Courier, WinAnsiEncoding, sized and stretched so that
    /// the box text extraction finds for it is the word's box. The page's own content is put
    /// between `q` and `Q` and left as it was, streams and images untouched; the words follow
    /// in a stream of their own. Characters WinAnsiEncoding lacks are written as `?`
    /// (``WinAnsiText``). A page without words is left alone.
    package func writeTextLayers(_ layers: [Int: TextPage]) throws {
        let pages = try pageReferences()
        for (index, text) in layers.sorted(by: { $0.key < $1.key }) {
            guard pages.indices.contains(index) else {
                throw RendererError(.pageOutOfRange, "page index \(index) is out of range", rendererID: rendererID)
            }
            let words = text.words.filter { !$0.bounds.isEmpty }
            guard !words.isEmpty else { continue }
            try addTextLayer(words, to: pages[index], space: try loadPage(at: index).pageSpace())
        }
    }

    private func addTextLayer(_ words: [TextWord], to page: PDFReference, space: PageSpace) throws {
        let font = try addObject(.dictionary([
            "Type": .name("Font"), "Subtype": .name("Type1"), "BaseFont": .name("Courier"), "Encoding": .name("WinAnsiEncoding"),
        ]))
        let name = try addPageResource("Font", named: "OCRText", .reference(font), to: page)
        var drawing = "BT\n3 Tr\n"
        for word in words {
            drawing += TextLayerWord(word, space: space).operators(font: name)
        }
        try drawOnPage(page, drawing + "ET\n")
    }

    /// Where `page`'s own resources of `kind` (`/Font`, `/XObject`) live; the page is given
    /// resources of its own first (a copy of those it inherits) when it has none.
    package func pageResource(_ kind: String, of page: PDFReference) throws -> PDFPlace {
        if try object(page.number)["Resources"] == nil {
            let resources = try resolved(try inherited("Resources", of: try object(page.number)))
            try setEntry("Resources", of: page, to: resources == .null ? .dictionary([:]) : resources)
        }
        return try place(of: kind, in: try place(of: "Resources", in: .object(page)))
    }
}

/// One word of a text layer: where its baseline starts in user space, which way its text
/// runs and its top lies there (the page's rotation undone), and how large and how wide its
/// glyphs are drawn.
struct TextLayerWord {
    /// Courier's advance (every glyph's) and its ascender and descender, in text space units
    /// of a 1-point font: the box a text extractor gives a word of it.
    static let advance = 0.6, ascent = 0.629, descent = -0.157

    var bytes: [UInt8]
    var origin: (x: Double, y: Double)
    var along: (x: Double, y: Double)
    var up: (x: Double, y: Double)
    var fontSize: Double
    var stretch: Double

    init(_ word: TextWord, space: PageSpace) {
        bytes = WinAnsiText.bytes(word.text)
        let box = word.bounds
        let (height, width) = (box.size.height, box.size.width)
        fontSize = height / (Self.ascent - Self.descent)
        let baseline = box.maxY + Self.descent * fontSize
        let start = space.userPoint(PagePoint(x: box.minX, y: baseline))
        let end = space.userPoint(PagePoint(x: box.maxX, y: baseline))
        let top = space.userPoint(PagePoint(x: box.minX, y: baseline - 1))
        origin = start
        along = ((end.x - start.x) / width, (end.y - start.y) / width)
        up = (top.x - start.x, top.y - start.y)
        let natural = Self.advance * fontSize * Double(max(bytes.count, 1))
        stretch = 100 * width / natural
    }

    /// The operators that draw the word in the font named `font`.
    func operators(font: String) -> String {
        let matrix = [along.x, along.y, up.x, up.y, origin.x, origin.y].map { PDFObject.number($0).syntax }.joined(separator: " ")
        return "/\(font) \(PDFObject.number(fontSize).syntax) Tf \(PDFObject.number(stretch).syntax) Tz \(matrix) Tm \(PDFObject.string(bytes).syntax) Tj\n"
    }
}
