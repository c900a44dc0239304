import Foundation
import RendererProvider

/// Annotations of every creatable kind with every field set, and a comparison that allows
/// what the round trip through a file may change: geometry within 0.5 pt, colours within
/// 1/255, opacity within 1/255, dates to the second.
public enum AnnotationSamples {
    public static let creationDate = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z
    public static let modificationDate = Date(timeIntervalSince1970: 1_710_000_000)  // 2024-03-09T16:00:00Z

    /// One annotation of `kind` on page `pageIndex`, inside the top-left 400 x 400 pt of the page,
    /// each a little different so that a mix-up shows.
    public static func sample(_ kind: AnnotationKind, pageIndex: Int, number: Int) -> Annotation {
        let x = 40 + Double(number % 4) * 90, y = 60 + Double(number / 4) * 90
        let box = PageRect(x: x, y: y, width: 70, height: 50)
        var annotation = Annotation(
            kind: kind, pageIndex: pageIndex, rect: box,
            color: Color(red: 0.8, green: Double(number) / 20, blue: 0.2),
            opacity: 0.75, contents: "\(kind) number \(number): ünïcödé", author: "Author \(number)",
            subject: "Subject \(number)", creationDate: creationDate, modificationDate: modificationDate,
            flags: [.print, .noZoom])
        switch kind {
        case .highlight, .underline, .strikeOut, .squiggly:
            annotation.quads = [
                Quad(PageRect(x: x, y: y, width: 70, height: 12)), Quad(PageRect(x: x, y: y + 14, width: 40, height: 12)),
            ]
        case .ink:
            annotation.inkPaths = [
                [PagePoint(x: x, y: y), PagePoint(x: x + 30, y: y + 40), PagePoint(x: x + 60, y: y + 10)],
                [PagePoint(x: x + 5, y: y + 45), PagePoint(x: x + 65, y: y + 45)],
            ]
            annotation.borderWidth = 2
        case .line:
            annotation.points = [PagePoint(x: x, y: y), PagePoint(x: x + 70, y: y + 50)]
            annotation.borderWidth = 3
            annotation.interiorColor = Color(red: 0, green: 0, blue: 1)
        case .polygon, .polyLine:
            annotation.points = [PagePoint(x: x, y: y + 50), PagePoint(x: x + 35, y: y), PagePoint(x: x + 70, y: y + 50)]
            annotation.borderWidth = 1.5
            if kind == .polygon { annotation.interiorColor = Color(red: 0.2, green: 0.6, blue: 0.2) }
        case .square, .circle:
            annotation.borderWidth = 2.5
            annotation.interiorColor = Color(red: 0.9, green: 0.9, blue: 0.4)
        case .freeText:
            annotation.borderWidth = 1
        case .text:
            annotation.rect = PageRect(x: x, y: y, width: 20, height: 20)
            annotation.iconName = "Comment"
            annotation.flags = [.print, .noZoom, .noRotate]  // implied for notes (ISO 32000-1, 12.5.6.4)
        case .stamp:
            annotation.iconName = "Approved"
            annotation.rect = PageRect(x: x, y: y, width: 80, height: 30)
        default:
            break
        }
        return annotation
    }

    /// A sample of every creatable kind, with every field set.
    public static func samples(pageIndex: Int) -> [Annotation] {
        AnnotationKind.creatable.enumerated().map { number, kind in sample(kind, pageIndex: pageIndex, number: number) }
    }

    /// How `actual` differs from `expected` in `fields`, one line per difference.
    public static func differences(_ expected: Annotation, _ actual: Annotation, in fields: Set<AnnotationField>) -> [String] {
        var found: [String] = []
        func close(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance }
        func close(_ a: PagePoint, _ b: PagePoint) -> Bool { close(a.x, b.x, 0.5) && close(a.y, b.y, 0.5) }
        func close(_ a: [PagePoint], _ b: [PagePoint]) -> Bool { a.count == b.count && zip(a, b).allSatisfy(close) }
        func close(_ a: Color?, _ b: Color?) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case (let a?, let b?): close(a.red, b.red, 1.0 / 255) && close(a.green, b.green, 1.0 / 255) && close(a.blue, b.blue, 1.0 / 255)
            default: false
            }
        }
        func corners(_ q: Quad) -> [PagePoint] { [q.upperLeft, q.upperRight, q.lowerLeft, q.lowerRight] }
        func check(_ field: AnnotationField, _ equal: Bool, _ a: Any?, _ b: Any?) {
            if fields.contains(field), !equal { found.append("\(expected.kind) \(field): expected \(String(describing: a)), got \(String(describing: b))") }
        }
        if expected.kind != actual.kind { found.append("kind: expected \(expected.kind), got \(actual.kind)") }
        if expected.pageIndex != actual.pageIndex { found.append("page: expected \(expected.pageIndex), got \(actual.pageIndex)") }
        if !expected.kind.hasDerivedRect {
            let (a, b) = (expected.rect, actual.rect)
            check(.rect, close(a.origin, b.origin) && close(a.size.width, b.size.width, 0.5) && close(a.size.height, b.size.height, 0.5), a, b)
        }
        check(.quads, close(expected.quads.flatMap(corners), actual.quads.flatMap(corners)), expected.quads, actual.quads)
        check(.inkPaths, expected.inkPaths.count == actual.inkPaths.count && zip(expected.inkPaths, actual.inkPaths).allSatisfy(close), expected.inkPaths, actual.inkPaths)
        check(.points, close(expected.points, actual.points), expected.points, actual.points)
        check(.color, close(expected.color, actual.color), expected.color, actual.color)
        check(.interiorColor, close(expected.interiorColor, actual.interiorColor), expected.interiorColor, actual.interiorColor)
        check(.opacity, close(expected.opacity, actual.opacity, 1.0 / 255), expected.opacity, actual.opacity)
        check(.borderWidth, expected.borderWidth.map { b in actual.borderWidth.map { close($0, b, 0.01) } ?? false } ?? (actual.borderWidth == nil), expected.borderWidth, actual.borderWidth)
        check(.contents, expected.contents == actual.contents, expected.contents, actual.contents)
        check(.author, expected.author == actual.author, expected.author, actual.author)
        check(.subject, expected.subject == actual.subject, expected.subject, actual.subject)
        check(.creationDate, expected.creationDate == actual.creationDate, expected.creationDate, actual.creationDate)
        check(.modificationDate, expected.modificationDate == actual.modificationDate, expected.modificationDate, actual.modificationDate)
        check(.flags, expected.flags == actual.flags, expected.flags, actual.flags)
        check(.iconName, expected.iconName == actual.iconName, expected.iconName, actual.iconName)
        return found
    }

    /// A copy of a fixture in a new temporary directory, to change and save.
    public static func scratchCopy(of path: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("annotations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        return copy
    }
}
