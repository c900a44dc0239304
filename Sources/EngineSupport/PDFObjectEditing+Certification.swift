import RendererEngine

extension PDFObjectEditing {
    /// `fields` with the certification signature marked: the signed field whose byte ranges
    /// are those of the signature dictionary the catalog's `/Perms /DocMDP` names gets the
    /// `/P` of its `/DocMDP` reference (2 when the reference gives none). Fields are returned
    /// as they are when the document has no certification, or it cannot be read.
    package func markingCertification(_ fields: [SignatureField]) -> [SignatureField] {
        guard fields.contains(where: \.isSigned), let (ranges, permissions) = try? certification() else { return fields }
        return fields.map { field in
            var field = field
            if field.isSigned, field.byteRanges == ranges { field.certification = permissions }
            return field
        }
    }

    /// The certification signature's byte ranges and permissions; nil without one.
    private func certification() throws -> (ranges: [SignatureField.ByteRange], permissions: CertificationPermissions)? {
        let catalog = try object(try catalogReference().number)
        let signature = try resolved(try resolved(catalog["Perms"])["DocMDP"])
        let numbers = try resolved(signature["ByteRange"]).items.compactMap(\.number).map { Int($0) }
        guard !numbers.isEmpty, numbers.count % 2 == 0 else { return nil }
        var level = CertificationPermissions.formFilling.rawValue
        for reference in try resolved(signature["Reference"]).items {
            let entry = try resolved(reference)
            guard entry["TransformMethod"] == .name("DocMDP") else { continue }
            if let given = try resolved(entry["TransformParams"])["P"]?.number { level = Int(given) }
        }
        guard let permissions = CertificationPermissions(rawValue: level) else { return nil }
        let ranges = stride(from: 0, to: numbers.count, by: 2).map { SignatureField.ByteRange(offset: numbers[$0], length: numbers[$0 + 1]) }
        return (ranges, permissions)
    }
}
