import RendererEngine

/// A text or choice field's new value, as ``FormFieldWriting/fill(_:values:)`` hands it to an
/// engine: the field's object, its widgets' objects with the pages that show them, and the
/// values with the index in `/Opt` of each (nil for a value that is no option, an editable
/// combo box's own), ascending.
package struct FormFieldValue {
    /// The field's object.
    package var field: PDFReference
    /// `Tx` or `Ch`.
    package var type: String
    /// The field's `/Ff`, as it inherits it.
    package var flags: Int
    /// The widgets' objects, with the 0-based index of the page that shows each (nil when
    /// none is found).
    package var widgets: [(reference: PDFReference, pageIndex: Int?)]
    /// The values, as the API checked them against the field: a text field's one text, a
    /// choice field's chosen export values (none: nothing chosen).
    package var values: [String]
    /// The index in `/Opt` of each value's option, ascending; nil for a value that is no
    /// option (an editable combo box's own text).
    package var optionIndices: [Int?]

    /// Whether the field is a choice field that takes several values (`/Ff` bit 22).
    package var isMultiSelect: Bool { type == "Ch" && flags & (1 << 21) != 0 }

    /// The entries of the field's dictionary the value is written as, the same for every
    /// engine (Poppler's form API writes these): `/V`, a text string (empty when cleared or
    /// when no option is chosen), or for several chosen options an array of them; `/I`, the
    /// chosen options' indices, for a multi-select field only (removed otherwise).
    package var entries: [(key: String, value: PDFObject?)] {
        let v: PDFObject = values.count <= 1 ? .text(values.first ?? "") : .array(values.map(PDFObject.text))
        let i: PDFObject? = isMultiSelect ? .array(optionIndices.compactMap { $0 }.map(PDFObject.integer)) : nil
        return [("V", v), ("I", i)]
    }
}

/// The one form write an engine performs: a text or choice field's value, which it gives
/// its widgets' new appearances. Finding the field, setting buttons, matching the values to
/// the options and the entries a value is written as are written once, in
/// ``fill(_:values:)`` and ``FormFieldValue``.
package protocol FormFieldWriting: PDFObjectEditing {
    /// Writes `value`, the field `name`'s, into the document, and draws its widgets anew.
    func writeField(_ value: FormFieldValue, named name: String) throws
}

extension FormFieldWriting {
    /// Sets `field` (as the form lists it) to `values`, which the API has checked against it:
    /// a button through the PDF-object primitives (``setButton(_:to:)``), a text or choice
    /// field through ``writeField(_:named:)``. A field written inside another object (not an
    /// object of its own), or one that takes no value, is `unsupported`.
    package func fill(_ field: FormField, values: [String]) throws {
        let target = try terminalField(named: field.name)
        if target.type == "Btn" { return try setButton(target, to: values.first ?? "Off") }
        guard let reference = target.reference else {
            throw RendererError(.unsupported, "the field \(field.name) is written inside another object", rendererID: rendererID)
        }
        guard let type = target.type, type == "Tx" || type == "Ch" else {
            throw RendererError(.unsupported, "the field \(field.name) takes no value", rendererID: rendererID)
        }
        let indices = values.map { value in field.options.firstIndex { $0.value == value } }
        let value = FormFieldValue(
            field: reference, type: type, flags: target.flags,
            widgets: target.widgets.compactMap { widget in widget.reference.map { ($0, widget.pageIndex) } },
            values: values, optionIndices: indices.sorted { ($0 ?? -1) < ($1 ?? -1) })
        try writeField(value, named: field.name)
    }
}
