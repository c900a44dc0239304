extension Document {
    /// The signature fields of the document's form, in the order of its field tree (a loop in
    /// the tree ends the walk where it closes), signed or not, as the file opened holds them.
    /// Nothing is verified; see `SignatureField`. Needs `Capability.signatures`.
    public func signatureFields() throws -> [SignatureField] {
        try withEngine(as: SignatureReading.self, needing: .signatures) { document, _ in try document.signatureFields() }
    }
}

extension Document {
    /// The terminal fields of the document's interactive form, in the order of its field
    /// tree (a loop in the tree ends the walk where it closes), with this document's changes.
    /// Needs `Capability.forms`.
    public func formFields() throws -> [FormField] {
        try withEngine(as: FormReading.self, needing: .forms) { document, _ in try document.formFields() }
    }

    /// Which form the document holds: none, an AcroForm (with or without XFA beside it), or
    /// XFA only, which cannot be filled. Needs `Capability.forms`.
    public func formKind() throws -> FormKind {
        try formKind(of: formFields())
    }

    /// The kind of the form whose fields are `fields`.
    private func formKind(of fields: [FormField]) throws -> FormKind {
        try require(.forms)
        return FormKind(hasFields: !fields.isEmpty, xfa: try withEngine(as: FormReading.self, needing: nil) { document, _ in try document.xfaFacts() })
    }

    /// Sets the field named `name` (fully qualified, as ``formFields()`` lists it) to
    /// `values`; see ``fillForm(_:)``.
    public func setFormField(_ name: String, to values: [String]) throws {
        try fillForm([name: values])
    }

    /// Sets each named field to its values, checked first against every field
    /// (`FormField.checkedValues(_:)`): when any name is unknown or any value not taken,
    /// nothing is set. A field given the values it holds is left as it is, read-only or not,
    /// so that values exported from a form import into it again. The fields' widgets then
    /// show the new values, drawn by the engine and in the saved file. Needs
    /// `Capability.fillForms` and the PDF's form-filling permission; an XFA-only form is
    /// `unsupported`.
    public func fillForm(_ values: [String: [String]]) throws {
        let fields = try fillableForm()
        let named = Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let unknown = values.keys.filter { named[$0] == nil }.sorted()
        guard unknown.isEmpty else {
            // A few names, each cut short: the values may come from anyone.
            let shown = unknown.prefix(5).map { $0.count > 80 ? $0.prefix(80) + "…" : $0 }.joined(separator: ", ")
            let more = unknown.count > 5 ? " and \(unknown.count - 5) more" : ""
            throw RendererError(.invalidArgument, "the form has no field named \(shown)\(more)", rendererID: renderer.id)
        }
        let changes = try fields.compactMap { field in
            try values[field.name].flatMap { $0 == field.values ? nil : (field, try field.checkedValues($0)) }
        }
        try write(changes)
    }

    /// Fills the form with `values`, as read from JSON, FDF or XFDF; see ``fillForm(_:)``.
    public func fillForm(from values: FormValues) throws {
        try fillForm(values.dictionary)
    }

    /// The values of every field that takes one, to export as JSON, FDF or XFDF. Needs
    /// `Capability.forms`.
    public func formValues() throws -> FormValues {
        FormValues(fields: try formFields())
    }

    /// Gives the named fields, or every field that takes a value and is not read-only, their
    /// default values (`/DV`), clearing those that have none; a field that holds its reset
    /// value already is left as it is. Naming a read-only field is
    /// `notPermitted`; otherwise as ``fillForm(_:)``.
    public func resetForm(fields names: [String]? = nil) throws {
        let fields = try fillableForm()
        if let names {
            let known = Set(fields.map(\.name))
            let unknown = names.filter { !known.contains($0) }
            guard unknown.isEmpty else {
                throw RendererError(.invalidArgument, "the form has no field named \(unknown.joined(separator: ", "))", rendererID: renderer.id)
            }
        }
        let chosen = fields.filter { field in
            field.isFillable && (names.map { $0.contains(field.name) } ?? !field.flags.contains(.readOnly))
        }
        let changes = try chosen.map { field in (field, try field.checkedValues(field.resetValues)) }
        try write(changes.filter { field, values in !field.holds(values) })
    }

    /// Draws every page's visible widgets into the page's content as they are shown now,
    /// then removes the widgets and the form: the values stay on the pages and can no longer
    /// be changed. Needs `Capability.flattenForms` and the PDF's modify permission.
    public func flattenForm() throws {
        try require(.flattenForms)
        try require(.modify, toAllow: "changes")
        try withEngine(as: FormFlattening.self, needing: nil) { document, _ in try document.flattenForm() }
        markChanged()
    }

    private func fillableForm() throws -> [FormField] {
        try require(.fillForms)
        try require(.fillForms, toAllow: "filling its form")
        let fields = try formFields()
        guard try formKind(of: fields) != .xfaOnly else {
            throw RendererError(.unsupported, "the form is XFA only; its fields live in the XFA stream, which is not filled", rendererID: renderer.id)
        }
        return fields
    }

    /// Sets each field to its values, then reads the form again: a field the engine
    /// reported set but that does not hold its values is `unsupported`, naming it, so that a
    /// fill never succeeds having written nothing. The document then holds whatever the
    /// engine did write: a caller that saves only after success (as sessions' edits do)
    /// leaves the file as it was.
    private func write(_ changes: [(FormField, [String])]) throws {
        guard !changes.isEmpty else { return }
        defer { markChanged() }
        try withEngine(as: FormFilling.self, needing: nil) { document, _ in
            for (field, values) in changes { try document.setFormField(field, values: values) }
        }
        let after = Dictionary(try formFields().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let unwritten = changes.filter { field, values in after[field.name]?.holds(values) != true }.map(\.0.name)
        guard unwritten.isEmpty else {
            throw RendererError(
                .unsupported, "\(renderer.engineName) did not write the value of \(unwritten.joined(separator: ", "))", rendererID: renderer.id)
        }
    }
}
