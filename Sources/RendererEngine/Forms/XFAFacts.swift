/// What a document says of XFA, an XML form beside (or instead of) its AcroForm: an engine
/// reads these two facts and ``FormKind/init(hasFields:xfa:)`` decides the kind of form.
public struct XFAFacts: OptionSet, Hashable, Sendable, Codable {
    public let rawValue: Int

    /// Facts from their bits: 1 for ``hasXFA``, 2 for ``needsRendering``.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The AcroForm has an `/XFA` entry.
    public static let hasXFA = XFAFacts(rawValue: 1)
    /// The catalog's `/NeedsRendering` is true: the document is meant to be drawn from its
    /// XFA form (dynamic XFA).
    public static let needsRendering = XFAFacts(rawValue: 2)
}
