import Foundation
import RendererProvider

/// Text laid onto pages: a watermark across them, a running header or footer, or Bates
/// numbers, in any script an installed font (or the font given) draws. Written as page
/// content (or as a watermark annotation), so that text extraction finds it.
///
/// The text may hold placeholders, filled in on each page: `{page}` (its number, from 1),
/// `{pages}` (how many the document has), `{date}` (``date`` as YYYY-MM-DD) and `{bates}`
/// (the page's Bates number, when ``bates`` is set). A newline starts another line.
public struct TextStamp: Hashable, Sendable {
    /// Where on the page the text stands.
    public enum Position: String, Hashable, Sendable, CaseIterable {
        /// Centred on the page (a watermark).
        case center
        /// Within the top margin (a header).
        case top
        /// Within the bottom margin (a footer).
        case bottom
    }

    /// How the lines line up, and where a header or footer stands across the page.
    public enum Alignment: String, Hashable, Sendable, Codable, CaseIterable {
        /// Lines start at the left margin (a watermark's: at its widest line's left end).
        case left
        /// Lines are centred.
        case center
        /// Lines end at the right margin (a watermark's: at its widest line's right end).
        case right
    }

    /// The text, with placeholders.
    public var text: String
    /// Where it stands.
    public var position: Position
    /// How it lines up.
    public var alignment: Alignment
    /// The font size in points; nil: a watermark as large as fits across the page (at most
    /// ``maximumFontSize``), a header or footer 10.
    public var fontSize: Double?
    /// The text's colour; its alpha is the stamp's opacity.
    public var color: Color
    /// How far the text is turned anticlockwise, in degrees.
    public var rotation: Double
    /// Over the page's content, behind it, or as a watermark annotation.
    public var placement: PageOverlay.Placement
    /// How far a header or footer stands from the page's edges, in points.
    public var margin: Double
    /// The TrueType font to draw in; nil: the installed font fontconfig ranks best among
    /// those that draw every character of the text.
    public var fontPath: String?
    /// The pages to stamp, by index; nil: every page.
    public var pages: [Int]?
    /// The Bates numbers `{bates}` stands for.
    public var bates: BatesNumbering?
    /// The date `{date}` stands for.
    public var date: Date

    /// The largest font size a stamp takes, in points.
    public static let maximumFontSize = 500.0

    /// A stamp with every part given; see ``watermark(_:)``, ``header(_:)``, ``footer(_:)``
    /// and ``bates(_:)`` for the usual ones.
    public init(
        text: String, position: Position, alignment: Alignment = .center, fontSize: Double? = nil, color: Color = .black, rotation: Double = 0,
        placement: PageOverlay.Placement = .over, margin: Double = 36, fontPath: String? = nil, pages: [Int]? = nil, bates: BatesNumbering? = nil,
        date: Date = Date()
    ) {
        self.text = text
        self.position = position
        self.alignment = alignment
        self.fontSize = fontSize
        self.color = color
        self.rotation = rotation
        self.placement = placement
        self.margin = margin
        self.fontPath = fontPath
        self.pages = pages
        self.bates = bates
        self.date = date
    }

    /// `text` across the middle of each page, turned 45 degrees, grey at 30 % opacity, as
    /// large as fits.
    public static func watermark(_ text: String) -> TextStamp {
        TextStamp(text: text, position: .center, color: Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.3), rotation: 45)
    }

    /// `text` centred at the top of each page, in 10 points.
    public static func header(_ text: String) -> TextStamp { TextStamp(text: text, position: .top) }

    /// `text` centred at the bottom of each page, in 10 points.
    public static func footer(_ text: String) -> TextStamp { TextStamp(text: text, position: .bottom) }

    /// `numbering`'s numbers at the bottom right of each page.
    public static func bates(_ numbering: BatesNumbering) -> TextStamp {
        TextStamp(text: "{bates}", position: .bottom, alignment: .right, bates: numbering)
    }

    /// The text on the `ordinal`th stamped page (from 0), page `index` of `pageCount`, its
    /// placeholders filled in.
    func text(pageIndex index: Int, ordinal: Int, pageCount: Int) -> String {
        var filled = text.replacingOccurrences(of: "{page}", with: String(index + 1))
            .replacingOccurrences(of: "{pages}", with: String(pageCount))
            .replacingOccurrences(of: "{date}", with: Self.day(date))
        if let bates { filled = filled.replacingOccurrences(of: "{bates}", with: bates.number(ordinal)) }
        return filled
    }

    private static func day(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

/// Bates numbers: a prefix and a number counted up page by page over the stamped pages,
/// padded with zeros (`ACME000001`, `ACME000002`…).
public struct BatesNumbering: Hashable, Sendable {
    /// What each number begins with.
    public var prefix: String
    /// The first page's number.
    public var start: Int
    /// How many digits a number has at least.
    public var digits: Int

    /// Numbers from `start` after `prefix`, `digits` long.
    public init(prefix: String, start: Int = 1, digits: Int = 6) {
        self.prefix = prefix
        self.start = start
        self.digits = digits
    }

    /// The number of the `ordinal`th stamped page (from 0).
    public func number(_ ordinal: Int) -> String {
        let value = String(start + ordinal)
        return prefix + String(repeating: "0", count: max(0, digits - value.count)) + value
    }
}
