import RendererEngine

/// The entries of an annotation's dictionary that are written the same way for every
/// engine, as ``AnnotationEditing`` writes them (each through the engine's
/// ``AnnotationEditing/setAnnotationEntries(_:of:)``, so that the engine's own view of the
/// annotation holds them): what is the engine's own to write (the shape, the text style,
/// the icon, the appearance) goes in the `annotation_record` instead.
package enum AnnotationEntries {
    /// The entries of `annotation` an engine draws its appearance from or keeps as it is,
    /// to be written before the engine's edit draws: the text (`/Contents`), author (`/T`),
    /// the annotation it answers (`/IRT`, the object `root` names), flags (`/F`), colours
    /// (`/C`, and `/IC` for a kind that has an interior), opacity (`/CA`) and border
    /// (`/BS /W`, which replaces a `/Border` array; the rest of a border style the
    /// annotation's dictionary `current` has, a dash, stays). A value that is nil is
    /// removed: no colour, no border, an opacity of 1 (the PDF's default).
    package static func drawn(of annotation: Annotation, answering root: PDFReference?, current: PDFObject?) -> [(key: String, value: PDFObject?)] {
        var entries: [(key: String, value: PDFObject?)] = [
            ("Contents", annotation.contents.map(PDFObject.text)),
            ("T", annotation.author.map(PDFObject.text)),
            ("IRT", root.map(PDFObject.reference)),
            ("F", .integer(Int(annotation.flags.rawValue))),
            ("C", annotation.color.map(colour)),
        ]
        if annotation.kind.traits.hasInteriorColor {
            entries.append(("IC", annotation.interiorColor.map(colour)))
        }
        entries += [
            ("CA", annotation.opacity < 1 ? .number(annotation.opacity) : nil),
            ("Border", nil),
            ("BS", annotation.borderWidth.map { width in
                var style = PDFObject.dictionary([:])
                if let kept = current?["BS"], case .dictionary = kept { style = kept }
                return style.setting("W", to: .number(width))
            }),
        ]
        return entries
    }

    /// The text entries of `annotation` that no engine draws, to be written after the
    /// engine's edit: its identity as `/NM`, subject, review state, then the dates, last,
    /// because the engines' setters stamp `/M` with the time of the change. The identity is
    /// always written; another entry that is nil is removed.
    package static func text(of annotation: Annotation) -> [(key: String, value: PDFObject?)] {
        let texts: [(key: String, text: String?)] = [
            ("NM", annotation.id), ("Subj", annotation.subject),
            ("State", annotation.reviewState?.rawValue), ("StateModel", annotation.reviewState?.model),
            ("CreationDate", annotation.creationDate.map(PDFDate.string(from:))), ("M", annotation.modificationDate.map(PDFDate.string(from:))),
        ]
        return texts.map { ($0.key, $0.text.map(PDFObject.text)) }
    }

    /// An RGB colour as a PDF colour array.
    private static func colour(_ color: Color) -> PDFObject {
        .array([.number(color.red), .number(color.green), .number(color.blue)])
    }
}
