import Foundation
import RendererProvider

/// XFDF export and import through a reading session.
extension ReadingSession {
    /// The document's annotations as XFDF; see `Document/xfdfData(_:fileName:)`.
    public func xfdfData(fileName: String? = nil) throws -> Data {
        try XFDF.data(for: annotations(), fileName: fileName) { try pageSpace(pageAt: $0) }
    }

    /// Imports the annotations of an XFDF document through the session (its settings
    /// enforced, its host told); see `Document/importXFDF(_:)`.
    public func importXFDF(_ data: Data) throws -> AnnotationImport {
        try XFDF.importing(data, pageCount: pageCount, pageSpace: pageSpace(pageAt:), into: importAnnotations)
    }
}
