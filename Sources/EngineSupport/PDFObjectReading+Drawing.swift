import RendererEngine

/// What a document's pages draw with paths (``PageDrawing``), read over the PDF-object
/// primitives for every engine, on the walk that lists images (``ImageLister``): the lines
/// ruled tables are drawn with, and the shapes of charts and diagrams.
extension PDFObjectReading {
    /// What pages `pages` draw with paths in the page's content and the forms it draws, page
    /// after page, in the order drawn (what annotations draw is left out):
    /// - Rules: each straight horizontal or vertical segment a path strokes (as thick as its
    ///   line width, at least ``ImageLister/hairline``), and each rectangle a path fills that
    ///   is at most ``PageRule/thicknessLimit`` thick and twice as long. At most
    ///   ``ImageLister/pageRuleLimit`` a page: a page that draws more (a pattern) lists its first.
    /// - Shapes: each other upright rectangle a path fills, and each path painted with a curve
    ///   or a slanting line in it, or filled with other straight lines (the path's bounds).
    ///   At most ``ImageLister/pageShapeLimit`` a page.
    package func listDrawing(pages: some Sequence<Int>) throws -> PageDrawing {
        var lister = ImageLister(objects: self, listsDrawing: true)
        for index in pages { try lister.list(pageAt: index, page: try pageReference(at: index)) }
        return PageDrawing(rules: lister.rules, shapes: lister.shapes)
    }
}

extension ImageLister {
    /// The most rules listed on one page.
    package static var pageRuleLimit: Int { 10_000 }
    /// The most shapes listed on one page.
    package static var pageShapeLimit: Int { 10_000 }
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
        case "c":
            if let p = numbers(6) { path.curve(through: [point(p[0], p[1]), point(p[2], p[3]), point(p[4], p[5])]) }
        case "v", "y":
            if let p = numbers(4) { path.curve(through: [point(p[0], p[1]), point(p[2], p[3])]) }
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
            stroke(transform, filled: true)
            path = PathTrace()
        case "b", "b*":
            path.close()
            fill()
            stroke(transform, filled: true)
            path = PathTrace()
        case "n": path = PathTrace()
        default: return
        }
    }

    /// Lists the straight segments of the path, stroked with the line width under
    /// `transform`, as rules, and the path as a shape when it has a curve or a slanting line
    /// (and is not `filled`, which listed it already).
    private mutating func stroke(_ transform: Transform, filled: Bool = false) {
        let scale = (abs(transform.a * transform.d - transform.b * transform.c)).squareRoot()
        let width = max(lineWidth * scale, Self.hairline)
        var slants = path.hasCurve
        for (from, to) in path.segments {
            let (dx, dy) = (abs(to.x - from.x), abs(to.y - from.y))
            if dy <= Self.straightness {
                if dx > width, width <= PageRule.thicknessLimit {
                    addRule(PageRect(x: min(from.x, to.x), y: (from.y + to.y) / 2 - width / 2, width: dx, height: width))
                }
            } else if dx <= Self.straightness {
                if dy > width, width <= PageRule.thicknessLimit {
                    addRule(PageRect(x: (from.x + to.x) / 2 - width / 2, y: min(from.y, to.y), width: width, height: dy))
                }
            } else {
                slants = true
            }
        }
        if slants, !filled, let bounds = path.bounds { addShape(bounds, isRectangle: false) }
    }

    /// Lists the path's filled rectangles that are thin enough to be lines as rules, its
    /// other upright rectangles as shapes, and the path as one shape when it has other lines.
    private mutating func fill() {
        for rectangle in path.rectangles {
            let (short, long) = (min(rectangle.size.width, rectangle.size.height), max(rectangle.size.width, rectangle.size.height))
            if short > 0, short <= PageRule.thicknessLimit, long >= 2 * short {
                addRule(rectangle)
            } else if short > 0 {
                addShape(rectangle, isRectangle: true)
            }
        }
        if path.hasOtherLines, let bounds = path.bounds { addShape(bounds, isRectangle: false) }
    }

    private mutating func addRule(_ bounds: PageRect) {
        guard pageRuleCount < Self.pageRuleLimit, bounds.isFinite else { return }
        rules.append(PageRule(pageIndex: pageIndex, bounds: bounds))
        pageRuleCount += 1
    }

    private mutating func addShape(_ bounds: PageRect, isRectangle: Bool) {
        guard pageShapeCount < Self.pageShapeLimit, bounds.isFinite else { return }
        shapes.append(PageShape(pageIndex: pageIndex, bounds: bounds, isRectangle: isRectangle))
        pageShapeCount += 1
    }
}

extension PageRect {
    /// Whether every edge is a finite number.
    fileprivate var isFinite: Bool { [minX, minY, maxX, maxY].allSatisfy(\.isFinite) }
}

/// The path a content stream is building, as much of it as the drawing needs, in page
/// space: its straight segments, the rectangles `re` added that stay upright on the page,
/// whether it has curves or lines that are not those rectangles' edges, and its bounds.
struct PathTrace {
    private(set) var segments: [(PagePoint, PagePoint)] = []
    private(set) var rectangles: [PageRect] = []
    /// Whether a curve is part of the path.
    private(set) var hasCurve = false
    /// Whether the path has a curve, or a line drawn with `l` or closing a subpath.
    private(set) var hasOtherLines = false
    private var start: PagePoint?
    private var current: PagePoint?
    private var minimum: PagePoint?
    private var maximum: PagePoint?
    /// The most segments one path keeps: a path of millions is a hostile stream's.
    static var segmentLimit: Int { 100_000 }

    /// The bounds of every point the path has gone through (a curve's control points
    /// included), when it has any.
    var bounds: PageRect? {
        guard let minimum, let maximum else { return nil }
        return PageRect(x: minimum.x, y: minimum.y, width: maximum.x - minimum.x, height: maximum.y - minimum.y)
    }

    mutating func move(to point: PagePoint) {
        (start, current) = (point, point)
        include(point)
    }

    mutating func line(to point: PagePoint) {
        if let current {
            append(current, point)
            hasOtherLines = true
        }
        current = point
        if start == nil { start = point }
        include(point)
    }

    /// Goes along a curve through control points `points` (the last is where it ends),
    /// which is no rule.
    mutating func curve(through points: [PagePoint]) {
        points.forEach { include($0) }
        (hasCurve, hasOtherLines) = (true, true)
        current = points.last
        if start == nil { start = points.first }
    }

    mutating func close() {
        if let start, let current, start != current {
            append(current, start)
            hasOtherLines = true
        }
        current = start
    }

    /// Adds a closed four-sided subpath through `corners` (and its edges as segments).
    mutating func rectangle(_ corners: [PagePoint]) {
        for index in corners.indices { append(corners[index], corners[(index + 1) % corners.count]) }
        corners.forEach { include($0) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        // Upright when its edges run across and down the page (not turned by a fraction).
        if Set(xs.map { ($0 * 100).rounded() }).count <= 2, Set(ys.map { ($0 * 100).rounded() }).count <= 2 {
            if rectangles.count < Self.segmentLimit {
                rectangles.append(PageRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!))
            }
        } else {
            hasOtherLines = true
        }
        (start, current) = (corners[0], corners[0])
    }

    private mutating func include(_ point: PagePoint) {
        guard point.x.isFinite, point.y.isFinite else { return }
        minimum = PagePoint(x: min(minimum?.x ?? point.x, point.x), y: min(minimum?.y ?? point.y, point.y))
        maximum = PagePoint(x: max(maximum?.x ?? point.x, point.x), y: max(maximum?.y ?? point.y, point.y))
    }

    private mutating func append(_ from: PagePoint, _ to: PagePoint) {
        if segments.count < Self.segmentLimit { segments.append((from, to)) }
    }
}
