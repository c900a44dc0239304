/// An optional-content group (a layer): content a reader may show or hide, such as a map's
/// labels or a plan's dimensions. Listed by `Document.layers()`; a drawing shows or hides it
/// through ``RenderOptions/layers``.
public struct Layer: Hashable, Sendable, Codable {
    /// Its place in the document's list of groups (`/OCProperties /OCGs`), from 0: what
    /// ``LayerVisibility`` names it by.
    public var index: Int
    /// Its name (`/Name`); several layers may share one.
    public var name: String
    /// Whether the document's default configuration (`/OCProperties /D`) shows it.
    public var isVisibleByDefault: Bool

    /// A layer with the given facts.
    public init(index: Int, name: String, isVisibleByDefault: Bool) {
        self.index = index
        self.name = name
        self.isVisibleByDefault = isVisibleByDefault
    }
}

/// A configuration of the document's layers (an optional-content configuration dictionary):
/// the default one (`/OCProperties /D`) or another a reader may choose (`/Configs`).
public struct LayerConfiguration: Hashable, Sendable, Codable {
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
