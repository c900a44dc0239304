import RendererEngine

extension StructuredText {
    /// The structure as CommonMark with GitHub's tables: `#` headings, paragraphs separated
    /// by an empty line, fenced code blocks, `-` and `1.` lists, pipe tables (the first row as
    /// header), a figure as `*Figure: ` and its description in emphasis, and a horizontal rule
    /// between pages. Characters Markdown would read as markup are escaped.
    public var markdown: String {
        pages.map { page in
            page.elements.map(\.markdown).joined(separator: "\n\n")
        }.filter { !$0.isEmpty }.joined(separator: "\n\n---\n\n") + "\n"
    }

    /// The structure as an HTML document: each page a `section` labelled with its number,
    /// headings `h1` to `h6`, `p`, `pre`, `ul` or `ol`, tables whose first row is of `th`
    /// cells, and `figure`s captioned with their description. Text is escaped; nothing is loaded from elsewhere.
    public func html(title: String? = nil) -> String {
        var out = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
        if let title { out += "<title>\(title.escapedForMarkup)</title>\n" }
        out += "</head>\n<body>\n"
        for page in pages {
            out += "<section aria-label=\"Page \(page.index + 1)\">\n"
            for element in page.elements { out += element.html + "\n" }
            out += "</section>\n"
        }
        return out + "</body>\n</html>\n"
    }
}

extension StructuredText.Element {
    /// The element as Markdown.
    var markdown: String {
        switch self {
        case .heading(let level, let text):
            return String(repeating: "#", count: level) + " " + text.markdownEscaped
        case .paragraph(let text):
            return text.markdownEscaped
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

    /// The element as HTML.
    var html: String {
        switch self {
        case .heading(let level, let text):
            return "<h\(level)>\(text.escapedForMarkup)</h\(level)>"
        case .paragraph(let text):
            return "<p>\(text.escapedForMarkup)</p>"
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
