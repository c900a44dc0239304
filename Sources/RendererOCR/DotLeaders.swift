import RendererProvider

/// The rows of leader dots on a page image (a table of contents' `Preface . . . . . 1`),
/// which Tesseract reads as letters (`cece eee`) and which put it off the page numbers
/// beside them. They are found before recognition, taken out of the image it reads, and put
/// back into the text it gives as periods, one a dot, on the line they belong to.
///
/// A dot is a blot of ink (8-connected pixels darker than ``inkLevel``) between
/// ``dotSize`` points wide and high, about as wide as high, that fills most of its box. A
/// row is at least ``shortestRow`` dots of about one size on one baseline, evenly spaced
/// no further than ``widestSpacing`` dot widths apart, with no other ink in the band
/// they run along.
struct DotLeaders {
    /// A row of dots, left to right, in the image's pixels.
    struct Row {
        var dots: [PixelBox]
    }

    /// The rows found.
    let rows: [Row]

    /// A pixel darker than this (0 black, 255 white) is ink.
    static let inkLevel = 128
    /// The smallest and largest a dot is across and down, in points.
    static let dotSize = (least: 0.4, most: 3.0)
    /// The fewest dots that make a row.
    static let shortestRow = 4
    /// The furthest apart two dots of a row are, left edge to left edge, in dot widths.
    static let widestSpacing = 8.0
    /// The most runs of ink (a row's dark pixels side by side) one image is analysed for:
    /// more is noise or a halftone, not text, and no row of dots is looked for.
    static let runLimit = 2_000_000

    /// The rows of dots in `bitmap`, whose pixels are `pointsPerPixel` points wide; none
    /// when it has more than `runLimit` runs of ink.
    init(in bitmap: Bitmap, pointsPerPixel: Double, runLimit: Int = Self.runLimit) {
        let components = Self.components(of: bitmap, runLimit: runLimit)
        let (least, most) = (Self.dotSize.least / pointsPerPixel, Self.dotSize.most / pointsPerPixel)
        var dots: [PixelBox] = []
        var others: [PixelBox] = []
        for component in components {
            let (width, height) = (Double(component.box.right - component.box.left), Double(component.box.bottom - component.box.top))
            let isDot = width >= least && width <= most && height >= least && height <= most
                && max(width, height) <= 1.6 * min(width, height) && Double(component.pixels) >= 0.5 * width * height
            if isDot { dots.append(component.box) } else { others.append(component.box) }
        }
        // Dots whose bottoms are within 2 pixels of the first's share a baseline.
        var baselines: [[PixelBox]] = []
        for dot in dots.sorted(by: { ($0.bottom, $0.left) < ($1.bottom, $1.left) }) {
            if let first = baselines.last?.first, dot.bottom - first.bottom <= 2 {
                baselines[baselines.count - 1].append(dot)
            } else {
                baselines.append([dot])
            }
        }
        var rows: [Row] = []
        for baseline in baselines {
            var run: [PixelBox] = []
            for dot in baseline.sorted(by: { $0.left < $1.left }) {
                if let last = run.last, Double(dot.left - last.left) <= Self.widestSpacing * Double(last.right - last.left) {
                    run.append(dot)
                } else {
                    if let row = Self.row(run, others: others) { rows.append(row) }
                    run = [dot]
                }
            }
            if let row = Self.row(run, others: others) { rows.append(row) }
        }
        self.rows = rows
    }

    /// `dots` as a row, when they are enough, evenly spaced, and alone in their band: a dot
    /// at either end spaced otherwise (a title's full stop) is left out first.
    private static func row(_ dots: [PixelBox], others: [PixelBox]) -> Row? {
        guard dots.count >= shortestRow else { return nil }
        let spacings = zip(dots, dots.dropFirst()).map { Double($1.left - $0.left) }
        let median = spacings.sorted()[spacings.count / 2]
        func even(_ spacing: Double) -> Bool { abs(spacing - median) <= max(2, 0.25 * median) }
        var (first, last) = (0, dots.count - 1)
        while first < last, !even(spacings[first]) { first += 1 }
        while last > first, !even(spacings[last - 1]) { last -= 1 }
        let dots = Array(dots[first...last])
        guard dots.count >= shortestRow, spacings[first..<last].allSatisfy(even) else { return nil }
        let height = dots.map { $0.bottom - $0.top }.max()!
        let band = PixelBox(left: dots.first!.left, top: dots.map(\.top).min()! - 2 * height, right: dots.last!.right, bottom: dots.map(\.bottom).max()!)
        guard !others.contains(where: { $0.intersects(band) }) else { return nil }
        return Row(dots: dots)
    }

    /// `bitmap` with the dots painted white.
    func erased(from bitmap: Bitmap) -> Bitmap {
        var copy = bitmap
        let step = bitmap.format.bytesPerPixel
        copy.bytes.withUnsafeMutableBufferPointer { pixels in
            for dot in rows.flatMap(\.dots) {
                for y in dot.top..<dot.bottom {
                    for x in dot.left..<dot.right {
                        let offset = y * bitmap.stride + x * step
                        for channel in 0..<min(step, 3) { pixels[offset + channel] = 255 }
                    }
                }
            }
        }
        return copy
    }

    /// `page` with each row's dots put back as periods (`scale` points a pixel), at their
    /// place across the line whose height takes in the row's baseline: one that runs across
    /// the row, else the one that ends nearest before it, else the one that starts nearest
    /// after it. A row that meets no line becomes a line of its own.
    func restored(into page: TextPage, scale: Double) -> TextPage {
        guard !rows.isEmpty else { return page }
        var blocks = page.blocks
        for row in rows {
            let baseline = Double(row.dots[0].bottom) * scale
            let (start, end) = (Double(row.dots.first!.left) * scale, Double(row.dots.last!.right) * scale)
            var best: (block: Int, line: Int, distance: Double)?
            for (b, block) in blocks.enumerated() {
                for (l, line) in block.lines.enumerated() {
                    let boxes = line.characters.filter { !$0.isWhitespace }.map(\.quad.bounds)
                    guard !boxes.isEmpty else { continue }
                    let top = boxes.map(\.minY).min()!, bottom = boxes.map(\.maxY).max()!
                    guard top <= baseline, baseline <= bottom + 0.1 * (bottom - top) else { continue }
                    let (left, right) = (boxes.map(\.minX).min()!, boxes.map(\.maxX).max()!)
                    // A line that runs across the row (a title and its page number) holds it;
                    // else the nearest that ends before it, or starts after it.
                    let distance = right <= start ? start - right : left >= end ? (left - end) + 1e6 : 0
                    if distance < (best?.distance ?? .infinity) { best = (b, l, distance) }
                }
            }
            guard let best else {
                let size = Double(row.dots.map { $0.bottom - $0.top }.max()!) * scale * 8
                let line = TextLine(characters: periods(row, scale: scale, top: baseline - size, bottom: baseline, fontSize: size))
                blocks.append(TextBlock(lines: [line]))
                continue
            }
            var characters = blocks[best.block].lines[best.line].characters
            let visible = characters.filter { !$0.isWhitespace }.map(\.quad.bounds)
            let (top, bottom) = (visible.map(\.minY).min()!, visible.map(\.maxY).max()!)
            let fontSize = characters.first { $0.fontSize != nil }?.fontSize
            let position = characters.firstIndex { !$0.isWhitespace && $0.quad.bounds.minX >= end } ?? characters.count
            var inserted = periods(row, scale: scale, top: top, bottom: bottom, fontSize: fontSize)
            func space(from: Double, to: Double) -> TextCharacter {
                TextCharacter(text: " ", quad: Quad(PageRect(x: from, y: top, width: max(0, to - from), height: bottom - top)), fontSize: fontSize)
            }
            if position > 0, !characters[position - 1].isWhitespace {
                inserted.insert(space(from: characters[position - 1].quad.bounds.maxX, to: start), at: 0)
            }
            if position < characters.count, !characters[position].isWhitespace {
                inserted.append(space(from: end, to: characters[position].quad.bounds.minX))
            }
            characters.insert(contentsOf: inserted, at: position)
            var lines = blocks[best.block].lines
            lines[best.line] = TextLine(characters: characters)
            blocks[best.block] = TextBlock(lines: lines)
        }
        return TextPage(blocks: blocks)
    }

    /// The row's dots as periods as high as `top...bottom` (`scale` points a pixel), their
    /// confidence full: they were measured, not guessed.
    private func periods(_ row: Row, scale: Double, top: Double, bottom: Double, fontSize: Double?) -> [TextCharacter] {
        row.dots.map { dot in
            let box = PageRect(x: Double(dot.left) * scale, y: top, width: Double(dot.right - dot.left) * scale, height: bottom - top)
            return TextCharacter(text: ".", quad: Quad(box), fontSize: fontSize, confidence: 100)
        }
    }

    /// A blot of ink: its box and how many pixels it has.
    struct Component {
        var box: PixelBox
        var pixels: Int
    }

    /// The 8-connected blots of ink of `bitmap`, found from each row's runs of ink joined to
    /// the runs they touch in the row above; none past `runLimit` runs.
    static func components(of bitmap: Bitmap, runLimit: Int) -> [Component] {
        let step = bitmap.format.bytesPerPixel
        // Gray is its one byte; colour its green, the brightest share of luminance.
        let channel = step == 1 ? 0 : 1
        var sets = DisjointSets()
        var found: [Component] = []
        var above: [(left: Int, right: Int, label: Int)] = []
        let complete: Bool = bitmap.bytes.withUnsafeBufferPointer { pixels in
            for y in 0..<bitmap.height {
                let row = y * bitmap.stride + channel
                var current: [(left: Int, right: Int, label: Int)] = []
                var x = 0
                var next = 0
                while x < bitmap.width {
                    while x < bitmap.width, Int(pixels[row + x * step]) >= inkLevel { x += 1 }
                    guard x < bitmap.width else { break }
                    let start = x
                    while x < bitmap.width, Int(pixels[row + x * step]) < inkLevel { x += 1 }
                    guard sets.count < runLimit else { return false }
                    let label = sets.add()
                    found.append(Component(box: PixelBox(left: start, top: y, right: x, bottom: y + 1), pixels: x - start))
                    // The runs above that touch this one, corners included.
                    while next < above.count, above[next].right < start { next += 1 }
                    var index = next
                    while index < above.count, above[index].left <= x {
                        sets.join(label, above[index].label)
                        index += 1
                    }
                    current.append((start, x, label))
                }
                above = current
            }
            return true
        }
        guard complete else { return [] }
        var merged: [Int: Component] = [:]
        for index in found.indices {
            let part = found[index]
            let root = sets.root(index)
            merged[root] = merged[root].map {
                Component(box: $0.box.union(part.box), pixels: $0.pixels + part.pixels)
            } ?? part
        }
        return Array(merged.values)
    }
}

/// A box of pixels: columns `left..<right`, rows `top..<bottom`.
struct PixelBox: Hashable {
    var left: Int
    var top: Int
    var right: Int
    var bottom: Int

    /// The smallest box holding both.
    func union(_ other: PixelBox) -> PixelBox {
        PixelBox(left: min(left, other.left), top: min(top, other.top), right: max(right, other.right), bottom: max(bottom, other.bottom))
    }

    /// True when the boxes share a pixel.
    func intersects(_ other: PixelBox) -> Bool {
        left < other.right && other.left < right && top < other.bottom && other.top < bottom
    }
}
