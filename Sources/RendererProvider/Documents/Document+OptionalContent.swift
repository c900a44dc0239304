/// The document's optional content: its groups (what viewers show as layers), their
/// configurations, and drawing with a chosen set of them shown.
extension Document {
    /// The document's optional-content groups in the order of its list of them
    /// (`/OCProperties /OCGs`), each with its state in the default configuration; empty for a
    /// document without. Needs `Capability.optionalContent`.
    public func optionalContentGroups() throws -> [OptionalContentGroup] {
        try withEngine(as: OptionalContentControl.self, needing: .optionalContent) { document, _ in try document.optionalContentGroups() }
    }

    /// The document's optional-content configurations: the default first, then the others it
    /// offers (`/Configs`); empty for a document without optional content. Needs
    /// `Capability.optionalContent`.
    public func optionalContentConfigurations() throws -> [OptionalContentConfiguration] {
        try withEngine(as: OptionalContentControl.self, needing: .optionalContent) { document, _ in try document.optionalContentConfigurations() }
    }

    /// The document's groups, once `visibility` is checked against them: `invalidArgument`
    /// for a group the document lacks or one both shown and hidden. Empty, unasked, for the
    /// default visibility.
    static func optionalContentGroups(checking visibility: OptionalContentVisibility, in document: any EngineDocument) throws -> [OptionalContentGroup] {
        guard !visibility.isDefault else { return [] }
        let groups = try document.capability(OptionalContentControl.self).optionalContentGroups()
        if let both = visibility.shown.intersection(visibility.hidden).min() {
            throw RendererError(.invalidArgument, "optional-content group \(both) cannot be both shown and hidden")
        }
        if let missing = visibility.shown.union(visibility.hidden).sorted().first(where: { !groups.indices.contains($0) }) {
            throw RendererError(.invalidArgument, "optional-content group \(missing) does not exist; the document has \(groups.count)")
        }
        return groups
    }

    /// Runs `draw` with `groups` (checked by ``optionalContentGroups(checking:in:)``) shown as
    /// `visibility` says, under the engine lock the caller holds, and puts every group back to
    /// its default state afterwards, whether `draw` throws or not. The default visibility
    /// changes nothing.
    static func drawing<T>(
        _ visibility: OptionalContentVisibility, of groups: [OptionalContentGroup], in document: any EngineDocument, _ draw: () throws -> T
    ) throws -> T {
        guard !visibility.isDefault else { return try draw() }
        let defaults = groups.map(\.isVisibleByDefault)
        let document = try document.capability(OptionalContentControl.self)
        try document.setOptionalContentStates(visibility.states(of: groups))
        let drawn: T
        do {
            drawn = try draw()
        } catch {
            try document.setOptionalContentStates(defaults)
            throw error
        }
        try document.setOptionalContentStates(defaults)
        return drawn
    }
}
