import Foundation
import RendererProvider

/// The stamps a command line or a request asks for, in the terms both take: a watermark, a
/// header, a footer and Bates numbers, with the look they share. One definition for
/// `hostapp stamp`'s options and the server's `POST /api/documents/{id}/stamped` body.
public struct StampOptions: Hashable, Sendable, Codable {
    /// Bates numbers at the bottom right.
    public struct Bates: Hashable, Sendable, Codable {
        /// What each number begins with.
        public var prefix: String
        /// The first number (1 when absent).
        public var start: Int?
        /// How many digits a number has at least (6 when absent).
        public var digits: Int?

        /// Numbers after `prefix`.
        public init(prefix: String, start: Int? = nil, digits: Int? = nil) {
            self.prefix = prefix
            self.start = start
            self.digits = digits
        }
    }

    /// A watermark across the middle of each page.
    public var text: String?
    /// Running text at the top of each page.
    public var header: String?
    /// Running text at the bottom of each page.
    public var footer: String?
    /// Bates numbers.
    public var bates: Bates?
    /// The pages to stamp, by index from 0; every page when absent.
    public var pages: [Int]?
    /// The font size in points; as ``TextStamp/fontSize`` when absent.
    public var fontSize: Double?
    /// The text's colour, `#RRGGBB`; grey for the watermark, black otherwise when absent.
    public var color: String?
    /// How opaque the text is, 0 to 1; 0.3 for the watermark, 1 otherwise when absent.
    public var opacity: Double?
    /// How far the watermark is turned anticlockwise, in degrees (45 when absent).
    public var rotation: Double?
    /// Where the header and footer stand (centred when absent).
    public var alignment: TextStamp.Alignment?
    /// How far the header, footer and Bates numbers stand from the edges (36 points when absent).
    public var margin: Double?
    /// Over the content (when absent), behind it (every stamp), or the watermark as an annotation.
    public var placement: PageOverlay.Placement?
    /// The TrueType font to draw in. Never read from a request: a client names no file of
    /// the server's; it is not part of the coded form.
    public var fontPath: String?

    private enum CodingKeys: String, CodingKey {
        case text, header, footer, bates, pages, fontSize, color, opacity, rotation, alignment, margin, placement
    }

    /// Options with nothing asked; set what is.
    public init() {}

    /// The stamps asked for; `invalidArgument` when none is, or for a colour that is not
    /// `#RRGGBB`. The stamps' own checks run when they are laid out.
    public func stamps() throws -> [TextStamp] {
        let numbering = bates.map { BatesNumbering(prefix: $0.prefix, start: $0.start ?? 1, digits: $0.digits ?? 6) }
        var stamps: [TextStamp] = []
        if let text {
            var stamp = TextStamp.watermark(text)
            stamp.rotation = rotation ?? stamp.rotation
            stamp.placement = placement ?? .over
            stamps.append(stamp)
        }
        if let header { stamps.append(TextStamp(text: header, position: .top, alignment: alignment ?? .center, bates: numbering)) }
        if let footer { stamps.append(TextStamp(text: footer, position: .bottom, alignment: alignment ?? .center, bates: numbering)) }
        if let numbering { stamps.append(.bates(numbering)) }
        guard !stamps.isEmpty else { throw RendererError(.invalidArgument, "no stamp is asked for: give a text, a header, a footer or Bates numbers") }
        let given = try color.map { text -> Color in
            guard let color = Color(hex: text) else { throw RendererError(.invalidArgument, "\"\(text)\" is not a colour like #FF8000") }
            return color
        }
        return stamps.map { stamp in
            var stamp = stamp
            stamp.pages = pages
            stamp.fontPath = fontPath
            stamp.margin = margin ?? stamp.margin
            stamp.fontSize = fontSize ?? stamp.fontSize
            if let given { stamp.color = Color(red: given.red, green: given.green, blue: given.blue, alpha: stamp.color.alpha) }
            if let opacity { stamp.color.alpha = opacity }
            if placement == .behind { stamp.placement = .behind }
            return stamp
        }
    }
}
