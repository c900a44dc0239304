import RendererProvider

/// The properties the fixtures were built to have (Tests/Fixtures/make-fixtures.js and
/// make-fixtures.sh state them); every conformance test compares against these.
enum FixtureFacts {
    static let letter = PageSize(width: 612, height: 792)

    static let mixedSizes: [PageSize] = [
        PageSize(width: 612, height: 792), PageSize(width: 595.28, height: 841.89),
        PageSize(width: 841.89, height: 595.28), PageSize(width: 200, height: 100),
        PageSize(width: 1000, height: 300),
    ]

    static let labels = ["i", "ii", "1", "2", "A-7", "A-8", "Cover", "Z", "AA"]

    /// boxes.pdf: each page's media, crop, bleed, trim and art boxes in user space, once
    /// inherited, defaulted and cut to the media box.
    static let boxes: [PageBoxes] = {
        func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> UserRect { UserRect(x0: x0, y0: y0, x1: x1, y1: y1) }
        let whole = box(0, 0, 600, 800), crop = box(20, 30, 580, 770), small = box(0, 0, 300, 400)
        return [
            PageBoxes(media: whole, crop: crop, bleed: box(10, 20, 590, 780), trim: box(40, 50, 560, 750), art: box(60, 70, 540, 730)),
            PageBoxes(media: whole, crop: whole, bleed: whole, trim: whole, art: whole),
            PageBoxes(media: small, crop: small, bleed: small, trim: box(100, 100, 300, 400), art: small),
            PageBoxes(media: whole, crop: crop, bleed: crop, trim: box(40, 50, 560, 750), art: crop),
        ]
    }()

    /// colors.pdf: solid rectangles in page space with their RGB colour.
    static let colorRects: [(rect: PageRect, rgb: [UInt8])] = [
        (PageRect(x: 72, y: 72, width: 144, height: 144), [255, 0, 0]),
        (PageRect(x: 252, y: 72, width: 144, height: 144), [0, 255, 0]),
        (PageRect(x: 432, y: 72, width: 108, height: 144), [0, 0, 255]),
        (PageRect(x: 72, y: 288, width: 144, height: 144), [0, 0, 0]),
        (PageRect(x: 252, y: 288, width: 144, height: 144), [255, 255, 0]),
        (PageRect(x: 432, y: 288, width: 108, height: 144), [51, 51, 51]),
    ]

    /// rotated.pdf: per page, the rotation and where its red rectangle lands in page space.
    static let rotatedRedRects: [(rotation: PageRotation, rect: PageRect)] = [
        (.none, PageRect(x: 0, y: 742, width: 100, height: 50)),
        (.quarter, PageRect(x: 0, y: 0, width: 50, height: 100)),
        (.half, PageRect(x: 512, y: 0, width: 100, height: 50)),
        (.threeQuarters, PageRect(x: 742, y: 512, width: 50, height: 100)),
    ]

    /// text.pdf page 0, Helvetica 12 pt on the baseline y = 72 (page space): each word's box
    /// from Helvetica's metrics (advance widths; ascender 0.718, descender -0.207 of the size).
    static let firstWords: [(text: String, box: PageRect)] = [
        ("The", PageRect(x: 72, y: 63.384, width: 20.676, height: 11.1)),
        ("quick", PageRect(x: 96.012, y: 63.384, width: 28.008, height: 11.1)),
        ("brown", PageRect(x: 127.356, y: 63.384, width: 32.676, height: 11.1)),
    ]

    /// search.pdf: hits for "apple" per option set, per page.
    static let appleHits: [(options: SearchOptions, perPage: [Int])] = [
        (SearchOptions(), [4, 2, 0]),
        (SearchOptions(caseSensitive: true), [2, 2, 0]),
        (SearchOptions(wholeWord: true), [3, 1, 0]),
        (SearchOptions(caseSensitive: true, wholeWord: true), [1, 1, 0]),
    ]

    /// outline.pdf's outline and page-0 links.
    static let outline: [OutlineItem] = [
        OutlineItem(title: "Chapter 1", destination: .page(index: 0, point: PagePoint(x: 0, y: 0)), isOpen: true, children: [
            OutlineItem(title: "Section 1.1", destination: .page(index: 1, point: PagePoint(x: 72, y: 292)), isOpen: false, children: []),
            OutlineItem(title: "Section 1.2", destination: .page(index: 2, point: PagePoint(x: 0, y: 392)), isOpen: false, children: []),
        ]),
        OutlineItem(title: "Chapter 2", destination: .page(index: 3, point: nil), isOpen: false, children: [
            OutlineItem(title: "Section 2.1", destination: .page(index: 3, point: PagePoint(x: 0, y: 192)), isOpen: false, children: []),
        ]),
        OutlineItem(title: "Website", destination: .uri("https://example.org/"), isOpen: false, children: []),
    ]

    static let links: [Link] = [
        Link(area: PageRect(x: 72, y: 72, width: 128, height: 20), destination: .page(index: 3, point: PagePoint(x: 0, y: 0))),
        Link(area: PageRect(x: 72, y: 122, width: 178, height: 20), destination: .uri("https://example.org/docs")),
        Link(area: PageRect(x: 72, y: 172, width: 128, height: 20), destination: .page(index: 2, point: PagePoint(x: 0, y: 392))),
    ]

    /// cropbox.pdf: 300 x 400 pt shown; red at page space x 0..100, y 350..400.
    static let cropSize = PageSize(width: 300, height: 400)
    static let cropRed = PageRect(x: 0, y: 350, width: 100, height: 50)
}

extension Bitmap {
    /// The pixel under a page-space point, for a whole-page render at `dpi`.
    func pixel(at point: PagePoint, dpi: Double) -> [UInt8] {
        pixel(x: Int(point.x * dpi / 72), y: Int(point.y * dpi / 72))
    }
}
