extension ReadingSession {
    /// The form's fields, as ``Document/formFields()`` lists them.
    public func formFields() throws -> [FormField] {
        try withDocument { document, _ in try document.formFields() }
    }

    /// The signature fields, as ``Document/signatureFields()`` lists them.
    public func signatureFields() throws -> [SignatureField] {
        try withDocument { document, _ in try document.signatureFields() }
    }

    /// The values of every field that takes one, as ``Document/formValues()`` gives them.
    public func formValues() throws -> FormValues {
        try withDocument { document, _ in try document.formValues() }
    }

    /// Fills the form as ``Document/fillForm(_:)`` does, tells `formChanged` with the fields
    /// whose values changed and returns them. Needs the ``SessionFeature/formFilling``
    /// setting and the PDF's form-filling permission.
    @discardableResult
    public func fillForm(_ values: [String: [String]]) throws -> [FormField] {
        try changingForm { document in try document.fillForm(values) }
    }

    /// Fills the form with values read from JSON, FDF or XFDF; see ``fillForm(_:)``.
    @discardableResult
    public func fillForm(from values: FormValues) throws -> [FormField] {
        try fillForm(values.dictionary)
    }

    /// Resets fields as ``Document/resetForm(fields:)`` does, tells `formChanged` with the
    /// fields whose values changed and returns them. Needs the ``SessionFeature/formFilling`` setting.
    @discardableResult
    public func resetForm(fields names: [String]? = nil) throws -> [FormField] {
        try changingForm { document in try document.resetForm(fields: names) }
    }

    /// Flattens the form as ``Document/flattenForm()`` does and tells `formChanged` with no
    /// fields left. Needs the ``SessionFeature/editing`` setting and the PDF's modify permission.
    public func flattenForm() throws {
        try withPermitted([.editing]) { document, state in
            try document.flattenForm()
            forgetEdits(in: state)
            emit(.formChanged([]), in: state)
        }
    }

    private func changingForm(_ change: (Document) throws -> Void) throws -> [FormField] {
        try withPermitted([.formFilling]) { document, state in
            let before = try document.formFields()
            try change(document)
            let unchanged = Set(before)
            let changed = try document.formFields().filter { !unchanged.contains($0) }
            if !changed.isEmpty {
                emit(.formChanged(changed), in: state)
                let earlier = Dictionary(before.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
                let values = { (field: FormField) in field.values.isEmpty ? [field.value ?? ""] : field.values }
                recorded(
                    .filledForm(
                        before: Dictionary(changed.compactMap { field in earlier[field.name].map { (field.name, values($0)) } }, uniquingKeysWith: { first, _ in first }),
                        after: Dictionary(changed.map { ($0.name, values($0)) }, uniquingKeysWith: { first, _ in first })),
                    in: state)
            }
            return changed
        }
    }
}
