import Foundation
import RendererProvider

/// What Ghostscript's PDF interpreter says of a page: its boxes and `/Rotate`.
struct GhostscriptPageFacts {
    var mediaBox: UserRect
    var cropBox: UserRect
    var rotation: PageRotation

    /// The crop box within the media box, as displayed.
    var size: PageSize {
        let width = cropBox.x1 - cropBox.x0
        let height = cropBox.y1 - cropBox.y0
        return rotation == .quarter || rotation == .threeQuarters ? PageSize(width: height, height: width) : PageSize(width: width, height: height)
    }

    /// PostScript that prints the page count, then a line per page: its `/Rotate`, media box
    /// and crop box (when it has one), or `none` for a page the interpreter cannot read.
    static let program = """
        InputFile (r) file runpdfbegin
        pdfpagecount =
        1 1 pdfpagecount {
          pdfgetpage dup null eq { pop (none) = } {
            dup /Rotate 2 copy known { get } { pop pop 0 } ifelse =only
            dup /MediaBox get { ( ) print =only } forall
            /CropBox 2 copy known { get { ( ) print =only } forall } { pop pop } ifelse
            () =
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

    private init?(line: String) {
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        guard numbers.count == 5 || numbers.count == 9, numbers.allSatisfy(\.isFinite) else { return nil }
        rotation = PageRotation(degrees: Int(numbers[0])) ?? .none
        mediaBox = Self.normalized(numbers[1...4])
        let crop = numbers.count == 9 ? Self.normalized(numbers[5...8]) : mediaBox
        cropBox = UserRect(
            x0: max(crop.x0, mediaBox.x0), y0: max(crop.y0, mediaBox.y0),
            x1: min(crop.x1, mediaBox.x1), y1: min(crop.y1, mediaBox.y1))
        if cropBox.x1 <= cropBox.x0 || cropBox.y1 <= cropBox.y0 { cropBox = mediaBox }
    }

    private static func normalized(_ corners: ArraySlice<Double>) -> UserRect {
        let values = Array(corners)
        return UserRect(x0: min(values[0], values[2]), y0: min(values[1], values[3]), x1: max(values[0], values[2]), y1: max(values[1], values[3]))
    }
}
