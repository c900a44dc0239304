import Foundation
import RendererCollaboration
import RendererProvider

/// Annotations as W3C Web Annotations (the Web Annotation Data Model, JSON-LD): each one a
/// textual body (its contents) and a target, the document, with a fragment selector of
/// RFC 3778 (`page=N&viewrect=left,top,width,height`, in points from the page's top-left).
enum WebAnnotations {
    static func collection(_ annotations: [Annotation], of descriptor: DocumentDescriptor) -> [String: Any] {
        let items = annotations.map { item($0, of: descriptor) }
        return [
            "@context": "http://www.w3.org/ns/anno.jsonld",
            "type": "AnnotationCollection",
            "label": "\(descriptor.documentID), layer \(descriptor.layer)",
            "total": items.count,
            "first": ["type": "AnnotationPage", "startIndex": 0, "items": items] as [String: Any],
        ]
    }

    static func item(_ annotation: Annotation, of descriptor: DocumentDescriptor) -> [String: Any] {
        let dates = ISO8601DateFormatter()
        let rect = annotation.rect
        let viewrect = [rect.minX, rect.minY, rect.size.width, rect.size.height].map { String(format: "%.2f", $0) }.joined(separator: ",")
        var item: [String: Any] = [
            "id": "urn:renderer-provider:annotation:\(annotation.id)",
            "type": "Annotation",
            "motivation": annotation.kind == .highlight ? "highlighting" : "commenting",
            "target": [
                "source": descriptor.documentID,
                "selector": [
                    "type": "FragmentSelector", "conformsTo": "http://tools.ietf.org/rfc/rfc3778",
                    "value": "page=\(annotation.pageIndex + 1)&viewrect=\(viewrect)",
                ],
            ] as [String: Any],
            "pdfAnnotationKind": annotation.kind.rawValue,
        ]
        if let contents = annotation.contents, !contents.isEmpty {
            item["body"] = ["type": "TextualBody", "value": contents, "format": "text/plain", "purpose": "commenting"]
        }
        if let author = annotation.author { item["creator"] = ["type": "Person", "nickname": author] }
        if let created = annotation.creationDate { item["created"] = dates.string(from: created) }
        if let modified = annotation.modificationDate { item["modified"] = dates.string(from: modified) }
        return item
    }
}
