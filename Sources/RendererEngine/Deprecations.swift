// The names this release replaced, kept for one release: each forwards to its new name.

/// An optional-content group.
@available(*, deprecated, renamed: "OptionalContentGroup")
public typealias Layer = OptionalContentGroup

/// A configuration of the optional-content groups.
@available(*, deprecated, renamed: "OptionalContentConfiguration")
public typealias LayerConfiguration = OptionalContentConfiguration

/// Which optional-content groups a drawing shows.
@available(*, deprecated, renamed: "OptionalContentVisibility")
public typealias LayerVisibility = OptionalContentVisibility

extension Capability {
    /// Lists and shows optional content.
    @available(*, deprecated, renamed: "optionalContent")
    public static let layers = Capability.optionalContent
}

extension RenderOptions {
    /// Which optional-content groups are drawn.
    @available(*, deprecated, renamed: "optionalContent")
    public var layers: OptionalContentVisibility {
        get { optionalContent }
        set { optionalContent = newValue }
    }
}
