import RendererProvider

/// Pages chosen on the command line: 1-based numbers and ranges such as `1-3,7` or `5-`,
/// where `N` stands for the last page (`N`, `5-N`), and ranges written backwards (`5-3`,
/// `N-1`) select their pages in that order, as mutool takes them.
package struct PageSelection {
    package let text: String

    /// The selection `text` names.
    package init(text: String) {
        self.text = text
    }

    /// The 0-based page indices selected in a document of `pageCount` pages, in the order
    /// given, without repeats. A range that reaches past the document's end is cut at the
    /// last page, with a note on stderr, as `mutool draw` and `pdftotext` read it. Malformed
    /// text and pages wholly past the end throw `pageOutOfRange`, which hostapp reports as a
    /// usage error.
    package func indices(pageCount: Int) throws -> [Int] {
        var result: [Int] = []
        var seen = Set<Int>()
        func number(_ text: Substring) -> Int? {
            let trimmed = text.trimmingWhitespace
            return trimmed == "N" ? pageCount : Int(trimmed)
        }
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = number(bounds[0]), first >= 1 else {
                throw RendererError(.pageOutOfRange, "'\(part)' is not a page number or range such as 1-3,7, 5-, 2-N or N-1")
            }
            var last = first
            if bounds.count == 2 {
                if bounds[1].trimmingWhitespace.isEmpty {
                    last = max(first, pageCount)
                } else {
                    guard let value = number(bounds[1]), value >= 1 else {
                        throw RendererError(.pageOutOfRange, "'\(part)' is not a page range such as 1-3, 5-3 or 2-N")
                    }
                    last = value
                }
            }
            let pages = pageCount == 0 ? "no pages" : pageCount == 1 ? "1 page" : "\(pageCount) pages"
            let (low, high) = (min(first, last), max(first, last))
            guard low <= pageCount else {
                throw RendererError(.pageOutOfRange, "page \(low) does not exist: the document has \(pages)")
            }
            if high > pageCount {
                let reading = first <= last ? "\(first)-\(pageCount)" : "\(pageCount)-\(last)"
                Failure.printNote("pages \(pageCount + 1)-\(high) of '\(part.trimmingWhitespace)' do not exist: the document has \(pages); reading \(reading)")
            }
            let range = low...min(high, pageCount)
            for number in first <= last ? Array(range) : range.reversed() where seen.insert(number).inserted {
                result.append(number - 1)
            }
        }
        return result
    }
}
