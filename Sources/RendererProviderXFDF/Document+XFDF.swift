import Foundation
import RendererProvider

/// XFDF export and import for documents.
extension Document {
    /// The document's annotations (or `annotations`, when given) as XFDF.
    public func xfdfData(_ annotations: [Annotation]? = nil, fileName: String? = nil) throws -> Data {
        try XFDF.data(for: annotations ?? self.annotations(), fileName: fileName) { try pageSpace(pageAt: $0) }
    }

    /// Imports the annotations of an XFDF document; see `Document/importAnnotations(_:)`.
    /// Elements that cannot be read are reported as skipped.
    public func importXFDF(_ data: Data) throws -> AnnotationImport {
        try XFDF.importing(data, pageCount: pageCount, pageSpace: pageSpace(pageAt:), into: importAnnotations)
    }
}
