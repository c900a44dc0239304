/// Which interactive form a document holds.
public enum FormKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// No form: no AcroForm fields and no XFA.
    case none
    /// An AcroForm, which `Document.formFields()` lists and the API fills.
    case acroForm
    /// An AcroForm with an XFA form beside it (a static or hybrid XFA form). The AcroForm
    /// fields are listed and filled; the XFA data is left as it is, so an XFA reader may
    /// show other values.
    case acroFormWithXFA = "acroform-with-xfa"
    /// An XFA form only (dynamic XFA: no AcroForm fields, or the catalog's `/NeedsRendering`
    /// set). Its fields exist only in the XFA stream, which neither engine reads, so the
    /// form can be neither listed nor filled.
    case xfaOnly = "xfa-only"

    /// The kind a document is when it has AcroForm fields or not, and `xfa` says: XFA
    /// only when the document must be drawn from its XFA or has no AcroForm fields.
    public init(hasFields: Bool, xfa: XFAFacts) {
        let needsRendering = xfa.contains(.needsRendering)
        switch (hasFields, xfa.contains(.hasXFA)) {
        case (_, true) where needsRendering || !hasFields: self = .xfaOnly
        case (true, true): self = .acroFormWithXFA
        case (true, false): self = .acroForm
        case (false, _): self = .none
        }
    }

    /// The kind of form, from the XFA facts as bits (1: ``XFAFacts/hasXFA``, 2:
    /// ``XFAFacts/needsRendering``).
    @available(*, deprecated, renamed: "init(hasFields:xfa:)", message: "pass XFAFacts; the bare bit field goes in the next release")
    public init(hasFields: Bool, xfaFacts: Int) {
        self.init(hasFields: hasFields, xfa: XFAFacts(rawValue: xfaFacts))
    }
}
