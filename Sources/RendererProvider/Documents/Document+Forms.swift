extension Document {
    /// The signature fields of the document's form, in the order of its field tree (a loop in
    /// the tree ends the walk where it closes), signed or not, as the file opened holds them.
    /// Nothing is verified; see ``SignatureField``. Needs ``Capability/signatures``.
    public func signatureFields() throws -> [SignatureField] {
        try require(.signatures)
        return try withEngine { document, _ in try document.signatureFields() }
    }
}

extension Document {
    /// The terminal fields of the document's interactive form, in the order of its field
    /// tree (a loop in the tree ends the walk where it closes), with this document's changes.
    /// Needs ``Capability/forms``.
    public func formFields() throws -> [FormField] {
        try require(.forms)
        return try withEngine { document, _ in try document.formFields() }
    }
}
