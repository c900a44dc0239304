import Foundation
import RendererProvider

extension Document {
    /// The document's annotations (or `annotations`, when given) as XFDF.
    public func xfdfData(_ annotations: [Annotation]? = nil, fileName: String? = nil) throws -> Data {
        try XFDF.data(for: annotations ?? self.annotations(), fileName: fileName) { try pageSpace(ofPageAt: $0) }
    }

    /// Imports the annotations of an XFDF document; see ``Document/importAnnotations(_:)``.
    /// Elements that cannot be read are reported as skipped.
    public func importXFDF(_ data: Data) throws -> AnnotationImport {
        let count = pageCount
        let contents = try XFDF.annotations(from: data) { index in
            guard (0..<count).contains(index) else {
                throw RendererError(.invalidArgument, "page \(index) is not in the document, which has \(count) pages (XFDF counts from 0)")
            }
            return try pageSpace(ofPageAt: index)
        }
        var result = try importAnnotations(contents.annotations)
        result.skipped.insert(contentsOf: contents.skipped, at: 0)
        return result
    }
}
