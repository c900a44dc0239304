/// The document's optional content: its layers, their configurations, and drawing with a
/// chosen set of them shown.
extension Document {
    /// The document's optional-content groups (layers) in the order of its list of them
    /// (`/OCProperties /OCGs`), each with its state in the default configuration; empty for a
    /// document without. Needs `Capability.layers`.
    public func layers() throws -> [Layer] {
        try require(.layers)
        return try withEngine { document, _ in try document.layers() }
    }

    /// The document's layer configurations: the default first, then the others it offers
    /// (`/Configs`); empty for a document without layers. Needs `Capability.layers`.
    public func layerConfigurations() throws -> [LayerConfiguration] {
        try require(.layers)
        return try withEngine { document, _ in try document.layerConfigurations() }
    }

    /// The document's layers, once `visibility` is checked against them: `invalidArgument`
    /// for a layer the document lacks or one both shown and hidden. Empty, unasked, for the
    /// default visibility.
    static func layers(checking visibility: LayerVisibility, in document: any EngineDocument) throws -> [Layer] {
        guard !visibility.isDefault else { return [] }
        let layers = try document.layers()
        if let both = visibility.shown.intersection(visibility.hidden).min() {
            throw RendererError(.invalidArgument, "layer \(both) cannot be both shown and hidden")
        }
        if let missing = visibility.shown.union(visibility.hidden).sorted().first(where: { !layers.indices.contains($0) }) {
            throw RendererError(.invalidArgument, "layer \(missing) does not exist; the document has \(layers.count)")
        }
        return layers
    }

    /// Runs `draw` with `layers` (checked by ``layers(checking:in:)``) shown as `visibility`
    /// says, under the engine lock the caller holds, and puts every layer back to its default
    /// state afterwards, whether `draw` throws or not. The default visibility changes nothing.
    static func drawing<T>(_ visibility: LayerVisibility, of layers: [Layer], in document: any EngineDocument, _ draw: () throws -> T) throws -> T {
        guard !visibility.isDefault else { return try draw() }
        let defaults = layers.map(\.isVisibleByDefault)
        try document.setLayerStates(visibility.states(of: layers))
        let drawn: T
        do {
            drawn = try draw()
        } catch {
            try document.setLayerStates(defaults)
            throw error
        }
        try document.setLayerStates(defaults)
        return drawn
    }
}
