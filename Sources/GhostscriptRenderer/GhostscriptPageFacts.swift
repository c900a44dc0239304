import EngineSupport
import Foundation
import RendererEngine

/// What Ghostscript's PDF interpreter says of a page: its boxes and `/Rotate`.
struct GhostscriptPageFacts {
    var boxes: PageBoxes
    var rotation: PageRotation

    /// The crop box in user space.
    var cropBox: UserRect { boxes.crop }

    /// The crop box as displayed.
    var size: PageSize {
        let width = cropBox.x1 - cropBox.x0
        let height = cropBox.y1 - cropBox.y0
        return rotation == .quarter || rotation == .threeQuarters ? PageSize(width: height, height: width) : PageSize(width: width, height: height)
    }

    /// PostScript that prints the page count, then a line per page: its `/Rotate`, then each
    /// box its dictionary has, as the box's name and four numbers; or `none` for a page the
    /// interpreter cannot read.
    static let program = """
        /rp-box { 2 copy known { ( ) print dup =only get { ( ) print =only } forall } { pop pop } ifelse } def
        InputFile (r) file runpdfbegin
        pdfpagecount =
        1 1 pdfpagecount {
          pdfgetpage dup null eq { pop (none) = } {
            dup /Rotate 2 copy known { get } { pop pop 0 } ifelse =only
            [ /MediaBox /CropBox /BleedBox /TrimBox /ArtBox ] { 1 index exch rp-box } forall
            pop () =
          } ifelse
        } for
        runpdfend
        """

    /// The pages `program` printed, in order; empty when it found none.
    static func pages(from output: String) -> [GhostscriptPageFacts?] {
        var lines = output.split(whereSeparator: \.isNewline).map(String.init)
        guard let first = lines.first, let count = Int(first), count > 0 else { return [] }
        lines.removeFirst()
        return (0..<count).map { index in index < lines.count ? GhostscriptPageFacts(line: lines[index]) : nil }
    }

    /// The facts of one line of `program`'s output; nil without a rotation and a media box.
    private init?(line: String) {
        let tokens = line.split(separator: " ")
        guard let degrees = tokens.first.flatMap({ Int($0) }) else { return nil }
        var found: [Substring: UserRect] = [:]
        var position = 1
        while position + 4 < tokens.count {
            let numbers = tokens[(position + 1)...(position + 4)].compactMap { Double($0) }
            guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
            found[tokens[position]] = UserRect(x0: numbers[0], y0: numbers[1], x1: numbers[2], y1: numbers[3])
            position += 5
        }
        guard let media = found["MediaBox"] else { return nil }
        rotation = PageRotation(degrees: degrees) ?? .none
        boxes = PageBoxes(media: media, crop: found["CropBox"], bleed: found["BleedBox"], trim: found["TrimBox"], art: found["ArtBox"])
    }
}
