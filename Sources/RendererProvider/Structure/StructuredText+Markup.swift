import RendererEngine

extension StructuredText {
    /// The structure as CommonMark with GitHub's tables: `#` headings, paragraphs separated
    /// by an empty line, fenced code blocks, `-` and `1.` lists, pipe tables (the first row as
    /// header), a figure as `*Figure: ` and its description in emphasis, links to web and
    /// mail addresses (``Link``; others are plain text), and a horizontal rule between pages.
    /// Characters Markdown would read as markup are escaped.
    public var markdown: String {
        pages.map { page in
            page.elements.enumerated().map { number, element in
                element.markdown(links: page.links.filter { $0.element == number })
            }.joined(separator: "\n\n")
        }.filter { !$0.isEmpty }.joined(separator: "\n\n---\n\n") + "\n"
    }

    /// The structure as an HTML document: each page a `section` (`id="page-N"`) labelled
    /// with its number, headings `h1` to `h6`, `p`, `pre`, `ul` or `ol`, tables whose first
    /// row is of `th` cells, `figure`s captioned with their description, and links (``Link``)
    /// to web and mail addresses and to the sections of the pages written out; others are
    /// plain text. Text is escaped; nothing is loaded from elsewhere.
    public func html(title: String? = nil) -> String {
        var out = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
        if let title { out += "<title>\(title.escapedForMarkup)</title>\n" }
        out += "</head>\n<body>\n"
        let written = Set(pages.map(\.index))
        for page in pages {
            out += "<section id=\"page-\(page.index + 1)\" aria-label=\"Page \(page.index + 1)\">\n"
            for (number, element) in page.elements.enumerated() {
                out += element.html(links: page.links.filter { $0.element == number }, pages: written) + "\n"
            }
            out += "</section>\n"
        }
        return out + "</body>\n</html>\n"
    }
}

extension StructuredText.Element {
    /// The element as Markdown, with `links` (on its words) to web and mail addresses.
    func markdown(links: [StructuredText.Link] = []) -> String {
        func linked(_ text: String) -> String {
            // A `!` before a link would make it an image.
            let plain = { (piece: String, beforeLink: Bool) -> String in
                let escaped = piece.markdownEscaped
                return beforeLink && escaped.hasSuffix("!") ? escaped.dropLast() + "\\!" : escaped
            }
            return Self.writing(text, links: links, address: { $0.address(toPages: nil) }, plain: plain) { words, address in
                "[\(words.markdownEscaped)](<\(address)>)"
            }
        }
        switch self {
        case .heading(let level, let text):
            return String(repeating: "#", count: level) + " " + linked(text)
        case .paragraph(let text):
            return linked(text)
        case .code(let text):
            let fence = String(repeating: "`", count: max(3, text.longestRun(of: "`") + 1))
            return fence + "\n" + text + "\n" + fence
        case .list(let ordered, let items):
            return items.enumerated().map { number, item in
                (ordered ? "\(number + 1). " : "- ") + item.markdownEscaped
            }.joined(separator: "\n")
        case .table(let rows):
            let width = rows.map(\.count).max() ?? 0
            guard width > 0 else { return "" }
            let lines = rows.map { row in
                "| " + (row + Array(repeating: "", count: width - row.count)).map { $0.markdownEscaped.replacingAll("|", with: "\\|") }
                    .joined(separator: " | ") + " |"
            }
            let rule = "|" + String(repeating: " --- |", count: width)
            return ([lines[0], rule] + lines.dropFirst()).joined(separator: "\n")
        case .figure(let alternateText):
            return "*" + (alternateText.map { "Figure: " + $0.markdownEscaped } ?? "Figure") + "*"
        }
    }

    /// The element as HTML, with `links` (on its words) to web and mail addresses and to
    /// the sections of `pages`.
    func html(links: [StructuredText.Link] = [], pages: Set<Int> = []) -> String {
        func linked(_ text: String) -> String {
            Self.writing(text, links: links, address: { $0.address(toPages: pages) }, plain: { piece, _ in piece.escapedForMarkup }) { words, address in
                "<a href=\"\(address.escapedForMarkup)\">\(words.escapedForMarkup)</a>"
            }
        }
        switch self {
        case .heading(let level, let text):
            return "<h\(level)>\(linked(text))</h\(level)>"
        case .paragraph(let text):
            return "<p>\(linked(text))</p>"
        case .code(let text):
            return "<pre><code>\(text.escapedForMarkup)</code></pre>"
        case .list(let ordered, let items):
            let tag = ordered ? "ol" : "ul"
            return "<\(tag)>\n" + items.map { "<li>\($0.escapedForMarkup)</li>\n" }.joined() + "</\(tag)>"
        case .table(let rows):
            var out = "<table>\n"
            for (number, row) in rows.enumerated() {
                let cell = number == 0 ? "th" : "td"
                out += "<tr>" + row.map { "<\(cell)>\($0.escapedForMarkup)</\(cell)>" }.joined() + "</tr>\n"
            }
            return out + "</table>"
        case .figure(let alternateText):
            return "<figure><figcaption>\((alternateText ?? "Figure").escapedForMarkup)</figcaption></figure>"
        }
    }
}

extension StructuredText.Element {
    /// `text` with the words each of `links` covers written by `link` (with the link's
    /// address) where `address` gives one, and everything else by `plain` (told whether a
    /// link follows).
    static func writing(
        _ text: String, links: [StructuredText.Link], address: (StructuredText.Link) -> String?, plain: (String, Bool) -> String,
        link: (String, String) -> String
    ) -> String {
        let scalars = Array(text.unicodeScalars)
        func piece(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }
        var out = "", position = 0
        for each in links {
            let end = each.start + each.text.unicodeScalars.count
            guard each.start >= position, end <= scalars.count, let target = address(each) else { continue }
            out += plain(piece(position..<each.start), true) + link(piece(each.start..<end), target)
            position = end
        }
        return out + plain(piece(position..<scalars.count), false)
    }
}

extension String {
    /// The text with Markdown's markup characters escaped by a backslash, and a start that
    /// would begin a heading, a list or a quote escaped too.
    var markdownEscaped: String {
        var out = ""
        for character in self {
            if "\\`*_[]<>#".contains(character) { out.append("\\") }
            out.append(character)
        }
        if let first = out.first, "+-=>".contains(first) { out = "\\" + out }
        if let dot = out.firstIndex(where: { !($0.isASCII && $0.isNumber) }), dot != out.startIndex, ".)".contains(out[dot]),
            out.index(after: dot) == out.endIndex || out[out.index(after: dot)].isWhitespace
        {
            out.insert("\\", at: dot)
        }
        return out
    }

    /// The length of the longest run of `character` in the text.
    func longestRun(of character: Character) -> Int {
        var longest = 0, run = 0
        for each in self {
            run = each == character ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// The text with every `target` replaced by `replacement`.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }
}
