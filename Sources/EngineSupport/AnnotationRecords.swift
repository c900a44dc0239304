import CAnnotationRecord
import Foundation
import RendererProvider

/// Converts between the API's ``Annotation`` and the `annotation_record` both engines' C
/// layers read and write. Each backend says how its C layer's coordinates map to page space.
package enum AnnotationRecords {
    /// The annotations in `records` (a page's, in `/Annots` order), with the identities
    /// ``AnnotationIdentity`` gives them and the flags their kinds imply.
    package static func annotations(
        _ records: UnsafeBufferPointer<annotation_record>, pageIndex: Int, point: (Double, Double) -> PagePoint
    ) -> [Annotation] {
        let ids = AnnotationIdentity.ids(pageIndex: pageIndex, of: records.map { (name(of: $0), kind(of: $0)) })
        return zip(records, ids).map { record, id in
            var annotation = annotation(record, id: id, pageIndex: pageIndex, point: point).withImpliedFlags()
            // The root by its identity; one on another page (a position of -1) is not named.
            let root = Int(record.in_reply_to) - 1
            annotation.inReplyTo = ids.indices.contains(root) ? ids[root] : nil
            return annotation
        }
    }

    /// The record's `/NM` name; nil when absent or empty.
    package static func name(of record: annotation_record) -> String? {
        string(record.name)
    }

    /// Calls `body` with `annotation` as a record, each point converted by `point` and the
    /// annotation it answers at `rootPosition` among the page's, valid during the call.
    package static func withRecord<T>(
        of annotation: Annotation, rootPosition: Int?, point: (PagePoint) -> (x: Double, y: Double),
        _ body: (UnsafePointer<annotation_record>) throws -> T
    ) throws -> T {
        guard let record = calloc(1, MemoryLayout<annotation_record>.stride)?.assumingMemoryBound(to: annotation_record.self) else {
            throw RendererError(.limitExceeded, "out of memory")
        }
        defer { annotation_records_free(record, 1) }
        func coordinates(_ points: [PagePoint]) -> [Double] {
            points.flatMap { p in
                let converted = point(p)
                return [converted.x, converted.y]
            }
        }
        let corners = coordinates([annotation.rect.origin, PagePoint(x: annotation.rect.maxX, y: annotation.rect.maxY)])
        record.pointee.name = copy(annotation.id)
        withUnsafeMutableBytes(of: &record.pointee.subtype) { bytes in
            for (i, byte) in annotation.kind.rawValue.utf8.prefix(31).enumerated() { bytes[i] = byte }
        }
        record.pointee.rect = (min(corners[0], corners[2]), min(corners[1], corners[3]), max(corners[0], corners[2]), max(corners[1], corners[3]))
        record.pointee.quads = copy(annotation.quads.flatMap { coordinates([$0.upperLeft, $0.upperRight, $0.lowerLeft, $0.lowerRight]) })
        record.pointee.quad_count = Int32(annotation.quads.count)
        record.pointee.ink = copy(coordinates(annotation.inkPaths.flatMap { $0 }))
        record.pointee.ink_counts = copy(annotation.inkPaths.map { Int32($0.count) })
        record.pointee.ink_path_count = Int32(annotation.inkPaths.count)
        record.pointee.points = copy(coordinates(annotation.points))
        record.pointee.point_count = Int32(annotation.points.count)
        if let color = annotation.color {
            record.pointee.color_n = 3
            record.pointee.color = (color.red, color.green, color.blue, 0)
        }
        if let color = annotation.interiorColor {
            record.pointee.interior_n = 3
            record.pointee.interior = (color.red, color.green, color.blue, 0)
        }
        record.pointee.opacity = annotation.opacity
        if let width = annotation.borderWidth {
            record.pointee.has_border = 1
            record.pointee.border = width
        }
        record.pointee.contents = copy(annotation.contents)
        record.pointee.author = copy(annotation.author)
        record.pointee.subject = copy(annotation.subject)
        record.pointee.icon = copy(annotation.iconName)
        record.pointee.created = copy(annotation.creationDate.map(PDFDate.string(from:)))
        record.pointee.modified = copy(annotation.modificationDate.map(PDFDate.string(from:)))
        record.pointee.flags = Int32(annotation.flags.rawValue)
        record.pointee.in_reply_to = rootPosition.map { Int32($0 + 1) } ?? 0
        record.pointee.state = copy(annotation.reviewState?.rawValue)
        record.pointee.state_model = copy(annotation.reviewState?.model)
        if let style = annotation.textStyle {
            record.pointee.font = copy(style.fontFamily.resourceName)
            record.pointee.font_size = style.fontSize
            record.pointee.text_color_n = 3
            record.pointee.text_color = (style.color.red, style.color.green, style.color.blue, 0)
            record.pointee.quadding = Int32(style.alignment.quadding)
        }
        return try body(record)
    }

    // MARK: Reading

    private static func annotation(_ record: annotation_record, id: String, pageIndex: Int, point: (Double, Double) -> PagePoint) -> Annotation {
        func points(_ values: UnsafeMutablePointer<Double>?, from first: Int, count: Int) -> [PagePoint] {
            (first..<first + count).map { point(values![2 * $0], values![2 * $0 + 1]) }
        }
        let quads = (0..<Int(record.quad_count)).map { i in
            let corners = points(record.quads, from: 4 * i, count: 4)
            return Quad(upperLeft: corners[0], upperRight: corners[1], lowerLeft: corners[2], lowerRight: corners[3])
        }
        var inkPaths: [[PagePoint]] = []
        var next = 0
        for path in 0..<Int(record.ink_path_count) {
            let count = Int(record.ink_counts[path])
            inkPaths.append(points(record.ink, from: next, count: count))
            next += count
        }
        let corners = [point(record.rect.0, record.rect.1), point(record.rect.2, record.rect.3)]
        return Annotation(
            id: id, kind: kind(of: record), pageIndex: pageIndex,
            rect: PageRect(
                x: min(corners[0].x, corners[1].x), y: min(corners[0].y, corners[1].y),
                width: abs(corners[1].x - corners[0].x), height: abs(corners[1].y - corners[0].y)),
            quads: quads, inkPaths: inkPaths, points: points(record.points, from: 0, count: Int(record.point_count)),
            color: Color(pdfComponents: components(record.color, count: record.color_n)),
            interiorColor: Color(pdfComponents: components(record.interior, count: record.interior_n)),
            opacity: record.opacity,
            borderWidth: record.has_border != 0 ? record.border : nil,
            contents: string(record.contents), author: string(record.author), subject: string(record.subject),
            creationDate: string(record.created).flatMap(PDFDate.parse),
            modificationDate: string(record.modified).flatMap(PDFDate.parse),
            flags: AnnotationFlags(rawValue: Int(record.flags)), iconName: string(record.icon),
            reviewState: string(record.state).flatMap { ReviewState(pdfName: $0, model: string(record.state_model)) },
            textStyle: string(record.font).map { font in
                TextStyle(
                    fontFamily: FontFamily(resourceName: font), fontSize: record.font_size,
                    color: Color(pdfComponents: components(record.text_color, count: record.text_color_n)) ?? Color(red: 0, green: 0, blue: 0),
                    alignment: TextAlignment(quadding: Int(record.quadding)))
            })
    }

    private static func kind(of record: annotation_record) -> AnnotationKind {
        var subtype = record.subtype
        let name = withUnsafeBytes(of: &subtype) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        return AnnotationKind(rawValue: name)
    }

    /// The first `count` of a C array of four components.
    private static func components(_ tuple: (Double, Double, Double, Double), count: Int32) -> [Double] {
        Array([tuple.0, tuple.1, tuple.2, tuple.3].prefix(Int(count)))
    }

    /// The C string as a Swift string; nil when absent or empty.
    private static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer, pointer.pointee != 0 else { return nil }
        return String(cString: pointer)
    }

    // MARK: Writing (into malloc, as annotation_records_free frees)

    private static func copy(_ text: String?) -> UnsafeMutablePointer<CChar>? {
        text.map { strdup($0) }
    }

    private static func copy<Element>(_ values: [Element]) -> UnsafeMutablePointer<Element> {
        let buffer = malloc(max(1, values.count) * MemoryLayout<Element>.stride)!.assumingMemoryBound(to: Element.self)
        _ = UnsafeMutableBufferPointer(start: buffer, count: values.count).initialize(from: values)
        return buffer
    }
}
