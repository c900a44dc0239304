/// An optional-content group (what viewers show as a layer): content a reader may show or
/// hide, such as a map's labels or a plan's dimensions. Listed by
/// `Document.optionalContentGroups()`; a drawing shows or hides it through
/// ``RenderOptions/optionalContent``.
public struct OptionalContentGroup: Hashable, Sendable, Codable {
    /// Its place in the document's list of groups (`/OCProperties /OCGs`), from 0: what
    /// ``OptionalContentVisibility`` names it by.
    public var index: Int
    /// Its name (`/Name`); several groups may share one.
    public var name: String
    /// Whether the document's default configuration (`/OCProperties /D`) shows it.
    public var isVisibleByDefault: Bool

    /// A group with the given facts.
    public init(index: Int, name: String, isVisibleByDefault: Bool) {
        self.index = index
        self.name = name
        self.isVisibleByDefault = isVisibleByDefault
    }
}

/// A configuration of the document's optional-content groups (an optional-content
/// configuration dictionary): the default one (`/OCProperties /D`) or another a reader may
/// choose (`/Configs`).
public struct OptionalContentConfiguration: Hashable, Sendable, Codable {
    /// Its name (`/Name`), when it has one.
    public var name: String?
    /// The application that made it (`/Creator`), when it says.
    public var creator: String?
    /// Whether it is the document's default configuration.
    public var isDefault: Bool

    /// A configuration with the given facts.
    public init(name: String?, creator: String?, isDefault: Bool) {
        self.name = name
        self.creator = creator
        self.isDefault = isDefault
    }
}
