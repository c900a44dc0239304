/// What importing annotations into a document did.
public struct AnnotationImport: Sendable {
    /// The annotations as stored, in the order given (each reply after its root).
    public var imported: [Annotation] = []
    /// The fields left out of each imported annotation (by its stored identity) because
    /// the renderer cannot write them.
    public var droppedFields: [String: [AnnotationField]] = [:]
    /// A line for each annotation that was not imported, saying why.
    public var skipped: [String] = []
}

extension Document {
    /// Adds annotations from elsewhere (another document, JSON, a property list, XFDF),
    /// keeping everything this renderer can write. An annotation whose identity is already
    /// on its page replaces it, so importing the same annotations twice changes nothing.
    /// Kinds the renderer cannot create are skipped, fields it cannot write are dropped,
    /// and both are reported. A reply is added after the annotation it answers.
    public func importAnnotations(_ incoming: [Annotation]) throws -> AnnotationImport {
        let support = renderer.annotationSupport
        var result = AnnotationImport()
        for var annotation in incoming.rootsFirst() {
            let label = "\(annotation.kind) \(annotation.id.isEmpty ? "(unnamed)" : "\"\(annotation.id)\"") on page \(annotation.pageIndex + 1)"
            guard support.creatableKinds.contains(annotation.kind) else {
                result.skipped.append("\(label): \(renderer.engineName) cannot create \(annotation.kind) annotations")
                continue
            }
            guard (0..<pageCount).contains(annotation.pageIndex) else {
                result.skipped.append("\(label): the document has \(pageCount) pages")
                continue
            }
            let dropped = annotation.setFields.subtracting(support.writableFields(for: annotation.kind))
            annotation = annotation.clearing(dropped)
            do {
                let existing = try annotations(pageAt: annotation.pageIndex).first { !annotation.id.isEmpty && $0.id == annotation.id }
                let stored = try existing == nil ? addAnnotation(annotation) : updateAnnotation(annotation)
                result.imported.append(stored)
                if !dropped.isEmpty { result.droppedFields[stored.id] = dropped.sorted() }
            } catch let error as RendererError where error.code == .invalidArgument || error.code == .unsupported {
                result.skipped.append("\(label): \(error.message)")
            }
        }
        return result
    }
}
