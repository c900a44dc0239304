import RendererEngine

/// The lines a document's pages draw across and down themselves (``PageRule``), read over
/// the PDF-object primitives for every engine, on the walk that lists images
/// (``ImageLister``): what ruled tables are drawn with.
extension PDFObjectReading {
    /// The rules pages `pages` draw, page after page, in the order drawn: each straight
    /// horizontal or vertical segment a path strokes (as thick as its line width, at least
    /// ``ImageLister/hairline``), and each rectangle a path fills that is at most
    /// ``PageRule/thicknessLimit`` thick and twice as long, in the page's content and the
    /// forms it draws. Lines drawn askew, curves, and what annotations draw are not rules.
    /// At most ``ImageLister/pageRuleLimit`` a page: a page that draws more (a chart, a
    /// pattern) lists its first.
    package func listRules(pages: some Sequence<Int>) throws -> [PageRule] {
        var lister = ImageLister(objects: self, listsRules: true)
        for index in pages { try lister.list(pageAt: index, page: try pageReference(at: index)) }
        return lister.rules
    }
}

extension ImageLister {
    /// The most rules listed on one page.
    package static var pageRuleLimit: Int { 10_000 }
    /// The thinnest a stroked rule is listed, in points: a line width of 0 draws the
    /// thinnest line a device can.
    static var hairline: Double { 0.1 }
    /// How far a segment's ends may differ across it and still be straight across or down, in points.
    static var straightness: Double { 0.5 }

    /// Follows a path operation (construction, painting or ending) drawn under `transform`;
    /// any other operation is passed over without a look at its operands.
    mutating func trace(_ operation: ContentStreamScanner.Operation, transform: Transform) {
        func point(_ x: Double, _ y: Double) -> PagePoint {
            space.point(x: transform.a * x + transform.c * y + transform.e, y: transform.b * x + transform.d * y + transform.f)
        }
        /// The operation's last `count` operands, when they are numbers.
        func numbers(_ count: Int) -> [Double]? {
            let values = operation.operands.suffix(count).compactMap(\.number)
            return values.count == count ? values : nil
        }
        switch operation.name {
        case "m":
            if let p = numbers(2) { path.move(to: point(p[0], p[1])) }
        case "l":
            if let p = numbers(2) { path.line(to: point(p[0], p[1])) }
        case "c", "v", "y":
            if let p = numbers(2) { path.jump(to: point(p[0], p[1])) }
        case "re":
            if let r = numbers(4) {
                path.rectangle([point(r[0], r[1]), point(r[0] + r[2], r[1]), point(r[0] + r[2], r[1] + r[3]), point(r[0], r[1] + r[3])])
            }
        case "h": path.close()
        case "S":
            stroke(transform)
            path = PathTrace()
        case "s":
            path.close()
            stroke(transform)
            path = PathTrace()
        case "f", "F", "f*":
            fill()
            path = PathTrace()
        case "B", "B*":
            fill()
            stroke(transform)
            path = PathTrace()
        case "b", "b*":
            path.close()
            fill()
            stroke(transform)
            path = PathTrace()
        case "n": path = PathTrace()
        default: return
        }
    }

    /// Lists the straight segments of the path, stroked with the line width under `transform`.
    private mutating func stroke(_ transform: Transform) {
        let scale = (abs(transform.a * transform.d - transform.b * transform.c)).squareRoot()
        let width = max(lineWidth * scale, Self.hairline)
        guard width <= PageRule.thicknessLimit else { return }
        for (from, to) in path.segments {
            let (dx, dy) = (abs(to.x - from.x), abs(to.y - from.y))
            if dy <= Self.straightness, dx > width {
                add(PageRect(x: min(from.x, to.x), y: (from.y + to.y) / 2 - width / 2, width: dx, height: width))
            } else if dx <= Self.straightness, dy > width {
                add(PageRect(x: (from.x + to.x) / 2 - width / 2, y: min(from.y, to.y), width: width, height: dy))
            }
        }
    }

    /// Lists the path's filled rectangles that are thin enough to be lines.
    private mutating func fill() {
        for rectangle in path.rectangles {
            let (short, long) = (min(rectangle.size.width, rectangle.size.height), max(rectangle.size.width, rectangle.size.height))
            if short > 0, short <= PageRule.thicknessLimit, long >= 2 * short { add(rectangle) }
        }
    }

    private mutating func add(_ bounds: PageRect) {
        guard pageRuleCount < Self.pageRuleLimit, [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY].allSatisfy(\.isFinite) else { return }
        rules.append(PageRule(pageIndex: pageIndex, bounds: bounds))
        pageRuleCount += 1
    }
}

/// The path a content stream is building, as much of it as rules need, in page space: its
/// straight segments, and the rectangles `re` added that stay upright on the page.
struct PathTrace {
    private(set) var segments: [(PagePoint, PagePoint)] = []
    private(set) var rectangles: [PageRect] = []
    private var start: PagePoint?
    private var current: PagePoint?
    /// The most segments one path keeps: a path of millions is a hostile stream's.
    static var segmentLimit: Int { 100_000 }

    mutating func move(to point: PagePoint) {
        (start, current) = (point, point)
    }

    mutating func line(to point: PagePoint) {
        if let current { append(current, point) }
        current = point
        if start == nil { start = point }
    }

    /// Moves on to `point` along a curve, which is no rule.
    mutating func jump(to point: PagePoint) {
        current = point
    }

    mutating func close() {
        if let start, let current, start != current { append(current, start) }
        current = start
    }

    /// Adds a closed four-sided subpath through `corners` (and its edges as segments).
    mutating func rectangle(_ corners: [PagePoint]) {
        for index in corners.indices { append(corners[index], corners[(index + 1) % corners.count]) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        // Upright when its edges run across and down the page (not turned by a fraction).
        if Set(xs.map { ($0 * 100).rounded() }).count <= 2, Set(ys.map { ($0 * 100).rounded() }).count <= 2, rectangles.count < Self.segmentLimit {
            rectangles.append(PageRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!))
        }
        (start, current) = (corners[0], corners[0])
    }

    private mutating func append(_ from: PagePoint, _ to: PagePoint) {
        if segments.count < Self.segmentLimit { segments.append((from, to)) }
    }
}
