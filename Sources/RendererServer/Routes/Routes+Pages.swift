import Foundation
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// The default resolution of a page image.
    static var defaultDPI: Double { 96 }

    /// The largest side a clip may have, in points: a PDF page's (200 inches).
    static let maximumClipSide = 14_400.0

    /// The part of the page a page image shows (``GeneratedRoutes/pageImage(_:)``):
    /// `clip=x,y,width,height`, in points from the top-left corner of the page's crop box as
    /// displayed (a rectangle of `StructuredText.Page.figureAreas`, say); nil for the whole
    /// page. 400 for anything but four decimal numbers (digits, a point and a sign only); 422
    /// for a width or a height not above 0 or a number past ``maximumClipSide``, and from the
    /// engine for a clip outside the page.
    static func clip(_ text: String?) throws -> PageRect? {
        guard let text else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy(isDecimal) else {
            throw APIError.badRequest("clip must be x,y,width,height: four decimal numbers of points")
        }
        let numbers = parts.map { Double($0) ?? .infinity }
        guard numbers.allSatisfy({ $0.isFinite && abs($0) <= maximumClipSide }), numbers[2] > 0, numbers[3] > 0 else {
            throw RendererError(.invalidArgument, "a clip's width and height must be above 0, and each number at most \(Int(maximumClipSide)) points")
        }
        return PageRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// Whether `text` is a decimal number as the API writes them: an optional minus, digits,
    /// and digits after a point where there is one.
    private static func isDecimal(_ text: Substring) -> Bool {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : text
        let halves = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(halves.count) && halves.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
    }

    /// The bytes drawing a page of `size` (points) at `dpi` or `width` pixels takes while it
    /// runs: 4 a pixel for the bitmap and as much again for encoding it, at most
    /// `maximumPixelCount` pixels (the drawing refuses more).
    static func renderBytes(of size: PageSize, dpi: Double?, width: Int?, maximumPixelCount: Int) -> Int {
        let resolution = resolution(of: size, dpi: dpi, width: width)
        let pixels = (size.width * resolution / 72).rounded(.up) * (size.height * resolution / 72).rounded(.up)
        return Int(min(pixels, Double(maximumPixelCount))) * 8
    }

    /// The resolution a page of `size` points is drawn at for a request: the one that makes
    /// it `width` pixels wide when a width is asked, else `dpi`, else ``defaultDPI``.
    static func resolution(of size: PageSize? = nil, dpi: Double? = nil, width: Int? = nil) -> Double {
        if let width, let size { return Double(width) * 72 / max(size.width, 1) }
        return dpi ?? defaultDPI
    }
}
