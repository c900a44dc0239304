/// What a page edit dropped because it would have pointed to a page that is no longer, or
/// was never, in the document: a deleted page, or a page of another PDF that was not copied.
public struct PageEditReport: Hashable, Sendable, Codable {
    /// Link annotations dropped (and the document's open action, when it went to such a page).
    public var links: Int
    /// Outline items dropped; an item with children keeps them and loses only its target.
    public var outlineItems: Int
    /// Named destinations dropped.
    public var namedDestinations: Int
    /// Form fields dropped with their pages, or widgets left out of copied pages (the
    /// fields belong to the other document's form).
    public var formFields: Int

    /// A report of the given counts.
    public init(links: Int = 0, outlineItems: Int = 0, namedDestinations: Int = 0, formFields: Int = 0) {
        self.links = links
        self.outlineItems = outlineItems
        self.namedDestinations = namedDestinations
        self.formFields = formFields
    }

    /// Whether nothing was dropped.
    public var isEmpty: Bool { self == PageEditReport() }

    /// One line per kind dropped, such as "2 links dropped".
    public var lines: [String] {
        [(links, "link"), (outlineItems, "outline item"), (namedDestinations, "named destination"), (formFields, "form field")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s") dropped" }
    }

    /// The sum of this report and `other`.
    public static func + (lhs: PageEditReport, rhs: PageEditReport) -> PageEditReport {
        PageEditReport(
            links: lhs.links + rhs.links, outlineItems: lhs.outlineItems + rhs.outlineItems,
            namedDestinations: lhs.namedDestinations + rhs.namedDestinations, formFields: lhs.formFields + rhs.formFields)
    }
}
