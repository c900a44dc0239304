import CAnnotationRecord
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

#if canImport(Glibc)
import Glibc
#endif

/// Converts the API's ``Annotation`` into the `annotation_record` both engines' C layers
/// write (what each engine keeps of its own: the shape, the text style, the icon;
/// ``AnnotationEntries`` says the entries written the same way for every engine),
/// with its kind's traits from ``AnnotationKindTraits/table``, which the C layers read
/// instead of lists of their own.
/// Each backend says how its C layer's coordinates map from page space.
package enum AnnotationRecords {
    /// Calls `body` with `annotation` as a record, each point converted by `point`, valid
    /// during the call.
    package static func withRecord<T>(
        of annotation: Annotation, point: (PagePoint) -> (x: Double, y: Double),
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
        withUnsafeMutableBytes(of: &record.pointee.subtype) { bytes in
            for (i, byte) in annotation.kind.rawValue.utf8.prefix(31).enumerated() { bytes[i] = byte }
        }
        let traits = annotation.kind.traits
        switch traits.geometry {
        case .rect: record.pointee.geometry = ANNOTATION_GEOMETRY_RECT
        case .quads: record.pointee.geometry = ANNOTATION_GEOMETRY_QUADS
        case .inkPaths: record.pointee.geometry = ANNOTATION_GEOMETRY_INK
        case .line: record.pointee.geometry = ANNOTATION_GEOMETRY_LINE
        case .vertices: record.pointee.geometry = ANNOTATION_GEOMETRY_VERTICES
        }
        record.pointee.has_icon = traits.hasIcon ? 1 : 0
        record.pointee.has_text_style = traits.hasTextStyle ? 1 : 0
        record.pointee.rect = (min(corners[0], corners[2]), min(corners[1], corners[3]), max(corners[0], corners[2]), max(corners[1], corners[3]))
        record.pointee.quads = copy(annotation.quads.flatMap { coordinates([$0.upperLeft, $0.upperRight, $0.lowerLeft, $0.lowerRight]) })
        record.pointee.quad_count = Int32(annotation.quads.count)
        record.pointee.ink = copy(coordinates(annotation.inkPaths.flatMap { $0 }))
        record.pointee.ink_counts = copy(annotation.inkPaths.map { Int32($0.count) })
        record.pointee.ink_path_count = Int32(annotation.inkPaths.count)
        record.pointee.points = copy(coordinates(annotation.points))
        record.pointee.point_count = Int32(annotation.points.count)
        record.pointee.border = annotation.borderWidth ?? 0
        record.pointee.icon = copy(annotation.iconName)
        if let style = annotation.textStyle {
            record.pointee.font = copy(style.fontFamily.resourceName)
            record.pointee.font_size = style.fontSize
            record.pointee.text_color_n = 3
            record.pointee.text_color = (style.color.red, style.color.green, style.color.blue, 0)
            record.pointee.quadding = Int32(style.alignment.quadding)
        }
        return try body(record)
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
