/// How a document is printed: which printer, which pages, how many copies, on one side or
/// both, fitted to the paper or at actual size, in colour or grey.
public struct PrintOptions: Hashable, Sendable, Codable {
    /// Printing on one side of the sheet or on both, turned on the long or the short edge.
    public enum Sides: String, Hashable, Sendable, Codable, CaseIterable {
        /// One side of each sheet.
        case oneSided = "one-sided"
        /// Both sides, turned on the long edge (as a book of portrait pages).
        case longEdge = "two-sided-long-edge"
        /// Both sides, turned on the short edge (as a pad of portrait pages).
        case shortEdge = "two-sided-short-edge"
    }

    /// How pages meet the paper: scaled to fit it, or at their own size.
    public enum Scaling: String, Hashable, Sendable, Codable, CaseIterable {
        /// Scaled up or down to fit the paper.
        case fit
        /// At the page's own size, cut where it passes the paper.
        case actualSize = "none"
    }

    /// The printer (a CUPS queue's name); nil for the print server's default.
    public var printer: String?
    /// The 0-based indices of the pages to print; nil for all. Printed in the document's
    /// order, each once.
    public var pages: [Int]?
    /// How many copies, 1 or more.
    public var copies: Int
    /// One side or both.
    public var sides: Sides
    /// Fitted to the paper, or at actual size.
    public var scaling: Scaling
    /// Printing in shades of grey only.
    public var grayscale: Bool
    /// Holding the job at the print server until it is released there (`lp -i ID -H resume`):
    /// a document that waits for its reader at the printer.
    public var held: Bool

    /// All pages, one copy, one-sided, fitted, in colour, to the default printer.
    public init(
        printer: String? = nil, pages: [Int]? = nil, copies: Int = 1, sides: Sides = .oneSided, scaling: Scaling = .fit,
        grayscale: Bool = false, held: Bool = false
    ) {
        self.printer = printer
        self.pages = pages
        self.copies = copies
        self.sides = sides
        self.scaling = scaling
        self.grayscale = grayscale
        self.held = held
    }

    /// `pages` as IPP's `page-ranges`: 1-based, ascending, joined ranges (`1-3,7`).
    var pageRanges: String? {
        guard let pages else { return nil }
        var ranges: [ClosedRange<Int>] = []
        for number in Set(pages).map({ $0 + 1 }).sorted() {
            if let last = ranges.last, last.upperBound + 1 == number {
                ranges[ranges.count - 1] = last.lowerBound...number
            } else {
                ranges.append(number...number)
            }
        }
        return ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
    }
}
