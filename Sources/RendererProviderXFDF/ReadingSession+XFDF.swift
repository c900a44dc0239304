import Foundation
import RendererProvider

extension ReadingSession {
    /// The document's annotations as XFDF; see ``Document/xfdfData(_:fileName:)``.
    public func xfdfData(fileName: String? = nil) throws -> Data {
        try XFDF.data(for: annotations(), fileName: fileName) { try pageSpace(ofPageAt: $0) }
    }

    /// Imports the annotations of an XFDF document through the session (its settings
    /// enforced, its host told); see ``Document/importXFDF(_:)``.
    public func importXFDF(_ data: Data) throws -> AnnotationImport {
        let count = try pageCount
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
