import CAnnotationRecord
import RendererEngine

/// The one form write an engine's C layer performs: a text or choice field's value, which
/// it gives its widgets' new appearances. Finding the field, setting buttons and matching
/// the values to the options are written once, in ``fill(_:values:)``.
package protocol FormFieldWriting: PDFObjectEditing {
    /// Writes `value`, the field `name`'s, into the document through the engine.
    func writeField(_ value: UnsafePointer<form_field_value>, named name: String) throws
}

extension FormFieldWriting {
    /// Sets `field` (as the form lists it) to `values`, which the API has checked against it:
    /// a button through the PDF-object primitives (``setButton(_:to:)``), a text or choice
    /// field through ``writeField(_:)``. A field written inside another object (not an
    /// object of its own) is `unsupported`.
    package func fill(_ field: FormField, values: [String]) throws {
        let target = try terminalField(named: field.name)
        if target.type == "Btn" { return try setButton(target, to: values.first ?? "Off") }
        guard let reference = target.reference else {
            throw RendererError(.unsupported, "the field \(field.name) is written inside another object", rendererID: rendererID)
        }
        let widgets = target.widgets.filter { $0.reference != nil }
        let numbers = widgets.map { Int32($0.reference!.number) }
        let pages = widgets.map { Int32($0.pageIndex ?? -1) }
        let indices = values.map { value in Int32(field.options.firstIndex { $0.value == value } ?? -1) }.sorted()
        try numbers.withUnsafeBufferPointer { numbers in
            try pages.withUnsafeBufferPointer { pages in
                try indices.withUnsafeBufferPointer { indices in
                    try values.withCStrings { strings in
                        try (target.type ?? "").withCString { type in
                            var value = form_field_value(
                                field: Int32(reference.number), type: type, flags: Int32(truncatingIfNeeded: target.flags),
                                widgets: numbers.baseAddress, pages: pages.baseAddress, widget_count: Int32(numbers.count),
                                values: strings, option_indices: indices.baseAddress, value_count: Int32(values.count))
                            try writeField(&value, named: field.name)
                        }
                    }
                }
            }
        }
    }
}
