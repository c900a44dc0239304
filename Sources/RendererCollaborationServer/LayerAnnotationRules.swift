import RendererProvider

enum LayerAnnotationRules {
    static func check(_ annotation: Annotation, pageCount: Int) throws {
        guard AnnotationKind(name: annotation.kind.rawValue).isCreatable else {
            throw RendererError(.invalidArgument, "a layer takes annotations of the kinds readers create, not \(annotation.kind.rawValue.prefix(40))")
        }
        guard (0..<pageCount).contains(annotation.pageIndex) else {
            throw RendererError(.invalidArgument, "page index \(annotation.pageIndex) is not in the document, which has \(pageCount) pages")
        }
        try AnnotationValidation.check(annotation)
    }
}
