import RendererEngine

/// The identities of a page's annotations, computed alike by every backend from what both
/// engines can read: each annotation's `/NM` name, its kind and its place in `/Annots`.
package enum AnnotationIdentity {
    /// The positional key of the `ordinal`-th (1-based) annotation of `kind` on page `pageIndex`.
    package static func positionalKey(pageIndex: Int, kind: AnnotationKind, ordinal: Int) -> String {
        "p\(pageIndex + 1)-\(kind.rawValue)-\(ordinal)"
    }

    /// The identity of each annotation, given in `/Annots` order with its name and kind: the
    /// name when it has one not used before on the page, else its positional key (counting
    /// every annotation of that kind, named or not, so naming one does not move the others).
    package static func ids(pageIndex: Int, of annotations: [(name: String?, kind: AnnotationKind)]) -> [String] {
        var ordinals: [AnnotationKind: Int] = [:]
        var used: Set<String> = []
        return annotations.map { annotation in
            let ordinal = ordinals[annotation.kind, default: 0] + 1
            ordinals[annotation.kind] = ordinal
            if let name = annotation.name, !name.isEmpty, used.insert(name).inserted { return name }
            let key = positionalKey(pageIndex: pageIndex, kind: annotation.kind, ordinal: ordinal)
            used.insert(key)
            return key
        }
    }
}
