import Foundation
import RendererComparison
import RendererProvider

/// A document's pages drawn, kept as one PNG file: the pages one under another (each on
/// white to the widest page's width), with the snapshot's provenance and each page's size in
/// an iTXt chunk, so that the file splits back into its pages exactly.
struct PageStrip {
    /// The keyword of the iTXt chunk that holds ``Layout`` as JSON.
    static let keyword = "RendererProvider snapshot"

    /// What the text chunk records.
    struct Layout: Codable {
        /// How the pages were drawn; nil with a failure.
        var provenance: DocumentSnapshot.Provenance?
        /// Each page's size in pixels, in order.
        var pages: [PixelSize]
        /// Why the pages could not be drawn, when they could not.
        var failure: String?
    }

    /// The PNG file of `snapshot`'s pages, its provenance and sizes in the text chunk.
    static func pngData(_ snapshot: DocumentSnapshot) -> Data {
        strip(snapshot.pageImages ?? [], Layout(provenance: snapshot.provenance, pages: [], failure: nil))
    }

    /// A 1 x 1 white PNG file whose layout records `failure`: what a strategy stores when the
    /// PDF could not be drawn, so that the comparison fails with the reason.
    static func pngData(failure: String) -> Data {
        strip([], Layout(provenance: nil, pages: [], failure: failure))
    }

    private static func strip(_ pages: [Bitmap], _ layout: Layout) -> Data {
        var layout = layout
        let width = max(1, pages.map(\.width).max() ?? 1)
        let height = max(1, pages.map(\.height).reduce(0, +))
        var bytes = [UInt8](repeating: 255, count: width * height * 3)
        var top = 0
        for page in pages {
            let rgb = page.opaqueRGB()
            for y in 0..<rgb.height {
                let source = y * rgb.stride, target = ((top + y) * width) * 3
                bytes.replaceSubrange(target..<(target + rgb.width * 3), with: rgb.bytes[source..<(source + rgb.width * 3)])
            }
            top += rgb.height
        }
        layout.pages = pages.map { PixelSize(width: $0.width, height: $0.height) }
        let strip = Bitmap(width: width, height: height, stride: width * 3, format: .rgb, bytes: bytes)
        // At the default level only exhausted memory fails to encode, which traps as any
        // allocation does; plain JSON always encodes.
        let png = try! strip.pngData()
        return try! PNGText.adding(String(decoding: try! JSONEncoder().encode(layout), as: UTF8.self), keyword: keyword, to: png)
    }

    /// The snapshot a strip's PNG file holds, or the reason it cannot be read (a file that is
    /// not such a strip, or a strip recording that its pages could not be drawn).
    static func snapshot(from data: Data) -> Result<DocumentSnapshot, StripError> {
        do {
            guard let text = try PNGText.text(forKeyword: keyword, in: data) else {
                return .failure(StripError(message: "the reference is a PNG file without the snapshot's page layout; record it again"))
            }
            let layout = try JSONDecoder().decode(Layout.self, from: Data(text.utf8))
            guard var provenance = layout.provenance else { return .failure(StripError(message: layout.failure ?? "the reference holds no pages")) }
            // A long document's strip may pass the default limit of a picture from elsewhere.
            let strip = try Bitmap(pngData: data, maximumPixelCount: Int(Int32.max))
            var pages: [Bitmap] = []
            var top = 0
            for size in layout.pages {
                guard top + size.height <= strip.height, size.width <= strip.width else {
                    return .failure(StripError(message: "the reference's pages do not fit its image; record it again"))
                }
                var bytes: [UInt8] = []
                bytes.reserveCapacity(size.width * size.height * 3)
                for y in top..<(top + size.height) {
                    let start = y * strip.stride
                    bytes += strip.bytes[start..<(start + size.width * strip.format.bytesPerPixel)]
                }
                pages.append(Bitmap(width: size.width, height: size.height, stride: size.width * strip.format.bytesPerPixel, format: strip.format, bytes: bytes))
                top += size.height
            }
            provenance.aspects = .pages
            return .success(DocumentSnapshot(provenance: provenance, pageImages: pages))
        } catch {
            return .failure(StripError(message: "the reference cannot be read: \(error)"))
        }
    }

    /// Why a strip holds no pages.
    struct StripError: Error {
        var message: String
    }
}
