/// Which interactive form a document holds.
public enum FormKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// No form: no AcroForm fields and no XFA.
    case none
    /// An AcroForm, which ``Document/formFields()`` lists and the API fills.
    case acroForm
    /// An AcroForm with an XFA form beside it (a static or hybrid XFA form). The AcroForm
    /// fields are listed and filled; the XFA data is left as it is, so an XFA reader may
    /// show other values.
    case acroFormWithXFA = "acroform-with-xfa"
    /// An XFA form only (dynamic XFA: no AcroForm fields, or the catalog's `/NeedsRendering`
    /// set). Its fields exist only in the XFA stream, which neither engine reads, so the
    /// form can be neither listed nor filled.
    case xfaOnly = "xfa-only"

    /// The kind a document is when it has AcroForm fields or not, and `xfaFacts` says (bit
    /// 1: the AcroForm has an `/XFA` entry; bit 2: the catalog's `/NeedsRendering` is true).
    public init(hasFields: Bool, xfaFacts: Int) {
        let hasXFA = xfaFacts & 1 != 0
        let needsRendering = xfaFacts & 2 != 0
        switch (hasFields, hasXFA) {
        case (_, true) where needsRendering || !hasFields: self = .xfaOnly
        case (true, true): self = .acroFormWithXFA
        case (true, false): self = .acroForm
        case (false, _): self = .none
        }
    }
}
