import RendererEngine

/// One annotation of a page as the API lists them (an entry of the page's `/Annots` that is
/// a dictionary and neither a link nor a popup: links are read as links, popups belong to
/// the annotation they show), with what the engines' edits need to find it.
package struct ListedAnnotation {
    /// The annotation as the API gives it.
    package var annotation: Annotation
    /// Its object, by which the engines' C layers find it to edit it; nil for a dictionary
    /// written inside the array, which cannot be edited.
    package var reference: PDFReference?
    /// Its `/NM` name as written; nil when absent or empty.
    package var name: String?
}

extension PDFObjectEditing {
    /// Page `index`'s annotations, in `/Annots` order, identified as ``Annotation/id`` says,
    /// their points in `space` (the page's): every field the API has, read from each
    /// annotation's dictionary. An annotation answering one that is not listed on this page
    /// has no ``Annotation/inReplyTo``.
    package func listedAnnotations(onPage index: Int, in space: PageSpace) throws -> [ListedAnnotation] {
        let page = try object(try pageReference(at: index).number)
        var listed: [(reference: PDFReference?, dictionary: PDFObject)] = []
        for item in try resolved(page["Annots"]).items {
            let dictionary = try resolved(item)
            guard case .dictionary = dictionary else { continue }
            if case .name(let subtype) = try resolved(dictionary["Subtype"]), subtype == "Link" || subtype == "Popup" { continue }
            let reference: PDFReference? = if case .reference(let reference) = item { reference } else { nil }
            listed.append((reference, dictionary))
        }
        let annotations = try listed.map { try AnnotationDictionary(document: self, dictionary: $0.dictionary).annotation(pageIndex: index, in: space) }
        let names = annotations.map { $0.id.isEmpty ? nil : $0.id }
        let ids = AnnotationIdentity.ids(pageIndex: index, of: zip(names, annotations).map { ($0, $1.kind) })
        return annotations.indices.map { position in
            var annotation = annotations[position]
            annotation.id = ids[position]
            if case .reference(let root) = listed[position].dictionary["IRT"] {
                annotation.inReplyTo = listed.firstIndex { $0.reference == root }.map { ids[$0] }
            }
            return ListedAnnotation(annotation: annotation, reference: listed[position].reference, name: names[position])
        }
    }
}

extension PDFObjectEditing {
    /// The annotation `reference` names on page `index`, whose identity is its `/NM`, `id`,
    /// and which answers `inReplyTo`: as ``listedAnnotations(onPage:in:)`` lists it, read
    /// without reading the page's others (an edit reads back the one it made).
    package func namedAnnotation(_ reference: PDFReference, id: String, inReplyTo: String?, onPage index: Int, in space: PageSpace) throws -> Annotation {
        var annotation = try AnnotationDictionary(document: self, dictionary: try object(reference.number)).annotation(pageIndex: index, in: space)
        annotation.id = id
        annotation.inReplyTo = inReplyTo
        return annotation
    }
}

extension Array where Element == ListedAnnotation {
    /// The object of the annotation `id` of page `pageIndex`'s list: `invalidArgument` when
    /// it is not there, or is written inside `/Annots` and has none.
    package func reference(of id: String, pageIndex: Int, rendererID: String) throws -> PDFReference {
        let annotation = self[try map(\.annotation).position(of: id, pageIndex: pageIndex, rendererID: rendererID)]
        guard let reference = annotation.reference else {
            throw RendererError(
                .invalidArgument, "annotation \"\(id)\" of page \(pageIndex + 1) is written inside the page's /Annots and cannot be changed",
                rendererID: rendererID)
        }
        return reference
    }
}

/// Reads the API's fields from one annotation dictionary, following references as it goes.
private struct AnnotationDictionary<Document: PDFObjectEditing> {
    let document: Document
    let dictionary: PDFObject

    /// The annotation, its id its `/NM` (empty for none), its points in `space`: its geometry
    /// and fields as its kind's traits (``AnnotationKindTraits``) say it has them.
    func annotation(pageIndex: Int, in space: PageSpace) throws -> Annotation {
        let subtype = try name("Subtype") ?? ""
        let traits = AnnotationKind(rawValue: subtype).traits
        let point = { (x: Double, y: Double) in space.point(x: x, y: y) }
        let rect = try numbers(try value("Rect"))
        var quads: [Quad] = []
        if traits.geometry == .quads {
            let values = try numbers(try value("QuadPoints"))
            quads = stride(from: 0, to: values.count / 8 * 8, by: 8).map { i in
                Quad(
                    upperLeft: point(values[i], values[i + 1]), upperRight: point(values[i + 2], values[i + 3]),
                    lowerLeft: point(values[i + 4], values[i + 5]), lowerRight: point(values[i + 6], values[i + 7]))
            }
        }
        let inkPaths = traits.geometry == .inkPaths ? try document.resolved(try value("InkList")).items.map { pointList(try numbers($0), point) } : []
        var points: [PagePoint] = []
        switch traits.geometry {
        case .line:
            let line = try numbers(try value("L"))
            points = line.count >= 4 ? pointList(Array(line.prefix(4)), point) : []
        case .vertices:
            points = pointList(try numbers(try value("Vertices")), point)
        case .rect, .quads, .inkPaths:
            break
        }
        var textStyle: TextStyle?
        if traits.hasTextStyle, let appearance = try text("DA") {
            textStyle = TextStyle(defaultAppearance: appearance)
            let quadding = try integer("Q") ?? 0
            textStyle?.alignment = TextAlignment(quadding: (0...2).contains(quadding) ? quadding : 0)
        }
        return Annotation(
            id: try text("NM") ?? "", kind: AnnotationKind(rawValue: subtype), pageIndex: pageIndex,
            rect: space.rect(rect.count >= 4 ? UserRect(x0: rect[0], y0: rect[1], x1: rect[2], y1: rect[3]) : UserRect(x0: 0, y0: 0, x1: 0, y1: 0)),
            quads: quads, inkPaths: inkPaths, points: points,
            color: try color("C"), interiorColor: try color("IC"), opacity: try document.resolved(try value("CA")).number ?? 1,
            borderWidth: try borderWidth(),
            contents: try text("Contents"), author: try text("T"), subject: try text("Subj"),
            creationDate: try text("CreationDate").flatMap(PDFDate.parse), modificationDate: try text("M").flatMap(PDFDate.parse),
            flags: AnnotationFlags(rawValue: try integer("F") ?? 0), iconName: traits.hasIcon ? try text("Name") : nil,
            reviewState: try text("State").flatMap { ReviewState(pdfName: $0, model: try text("StateModel")) },
            textStyle: textStyle
        ).withImpliedFlags()
    }

    /// The entry `key`, a reference followed.
    private func value(_ key: String) throws -> PDFObject {
        try document.resolved(dictionary[key])
    }

    /// The entry `key` as a name; nil for anything else.
    private func name(_ key: String) throws -> String? {
        if case .name(let name) = try value(key) { return name }
        return nil
    }

    /// The entry `key` as text: a text string or a name; nil for anything else, or empty.
    private func text(_ key: String) throws -> String? {
        TerminalField.text(of: try value(key)).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The entry `key` as a whole number (a real's integer part); nil for anything else.
    private func integer(_ key: String) throws -> Int? {
        guard let number = try value(key).number, number.isFinite, number.magnitude < 1e15 else { return nil }
        return Int(number)
    }

    /// The numbers of an array, references followed; empty when any item is no number.
    private func numbers(_ array: PDFObject) throws -> [Double] {
        var values: [Double] = []
        for item in array.items {
            guard let number = try document.resolved(item).number else { return [] }
            values.append(number)
        }
        return values
    }

    /// Points of x, y pairs of user-space numbers (an odd last number dropped).
    private func pointList(_ values: [Double], _ point: (Double, Double) -> PagePoint) -> [PagePoint] {
        stride(from: 0, to: values.count / 2 * 2, by: 2).map { point(values[$0], values[$0 + 1]) }
    }

    /// The colour an array of 1 (gray), 3 (RGB) or 4 (CMYK) numbers at `key` gives.
    private func color(_ key: String) throws -> Color? {
        Color(pdfComponents: try numbers(try value(key)))
    }

    /// The border width: `/BS /W`, else the third number of `/Border`; nil with neither.
    private func borderWidth() throws -> Double? {
        let style = try value("BS")
        if let width = try document.resolved(style["W"]).number { return width }
        let border = try numbers(try value("Border"))
        return border.count >= 3 ? border[2] : nil
    }
}
