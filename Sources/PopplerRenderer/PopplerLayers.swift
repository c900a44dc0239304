import CPopplerGlib
import RendererEngine

extension PopplerDocument {
    /// Read from the core twin: poppler-glib lists layers in `/Order`'s order, not the
    /// document's, and leaves out those `/Order` does not name.
    func layers() throws -> [Layer] {
        if let coreLayers { return coreLayers }
        let layers = try logging { try core.layers() }
        coreLayers = layers
        return layers
    }

    func layerConfigurations() throws -> [LayerConfiguration] {
        try logging { try core.layerConfigurations() }
    }

    /// Shows and hides the glib twin's layers, which its drawings follow. Layer `i` of the
    /// document's list is the glib layer of the same name, the k-th of that name for the k-th
    /// layer so named. poppler-glib cannot reach a layer the default configuration's `/Order`
    /// leaves out: changing such a layer's state is `unsupported`. Hidden layers are hidden
    /// before shown ones are shown, so that showing a member of a radio-button group (which
    /// hides the others) wins.
    func setLayerStates(_ states: [Bool]) throws {
        let layers = try self.layers()
        guard states.count == layers.count else {
            throw RendererError(.invalidArgument, "\(states.count) layer states given for \(layers.count) layers", rendererID: PopplerErrors.rendererID)
        }
        let glibLayers = try currentGlib().layers
        var seen: [String: Int] = [:]
        var changes: [(handle: OpaquePointer, shown: Bool)] = []
        for (layer, shown) in zip(layers, states) {
            let occurrence = seen[layer.name, default: 0]
            seen[layer.name] = occurrence + 1
            let namesakes = glibLayers.filter { $0.title == layer.name }
            guard occurrence < namesakes.count else {
                guard shown == layer.isVisibleByDefault else {
                    throw RendererError(
                        .unsupported, "Poppler cannot show or hide layer \(layer.index) (\(layer.name)): the default configuration's /Order leaves it out",
                        rendererID: PopplerErrors.rendererID)
                }
                continue
            }
            let handle = namesakes[occurrence].handle
            if (poppler_layer_is_visible(handle) != 0) != shown { changes.append((handle, shown)) }
        }
        logging {
            for change in changes where !change.shown { poppler_layer_hide(change.handle) }
            for change in changes where change.shown { poppler_layer_show(change.handle) }
        }
    }
}
