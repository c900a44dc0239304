import CPopplerGlib
import EngineSupport
import RendererEngine

extension PopplerDocument {
    /// Read from the core twin: poppler-glib lists its layers (the groups) in `/Order`'s
    /// order, not the document's, and leaves out those `/Order` does not name.
    func optionalContentGroups() throws -> [OptionalContentGroup] {
        if let coreGroups { return coreGroups }
        let groups = try logging { try core.optionalContentGroups() }
        coreGroups = groups
        return groups
    }

    func optionalContentConfigurations() throws -> [OptionalContentConfiguration] {
        try logging { try core.optionalContentConfigurations() }
    }

    /// Shows and hides the glib twin's layers, which its drawings follow. Group `i` of the
    /// document's list is the glib layer of the same name, the k-th of that name for the k-th
    /// group so named. poppler-glib cannot reach a layer the default configuration's `/Order`
    /// leaves out: changing such a layer's state is `unsupported`. Hidden layers are hidden
    /// before shown ones are shown, so that showing a member of a radio-button group (which
    /// hides the others) wins.
    func setOptionalContentStates(_ states: [Bool]) throws {
        let groups = try optionalContentGroups()
        guard states.count == groups.count else {
            throw RendererError(
                .invalidArgument, "\(states.count) states given for \(groups.count) optional-content groups", rendererID: PopplerErrors.rendererID)
        }
        try checkGlibWalksLayerOrder()
        let glibLayers = try currentGlib().layers
        var seen: [String: Int] = [:]
        var changes: [(handle: OpaquePointer, shown: Bool)] = []
        for (group, shown) in zip(groups, states) {
            let occurrence = seen[group.name, default: 0]
            seen[group.name] = occurrence + 1
            let namesakes = glibLayers.filter { $0.title == group.name }
            guard occurrence < namesakes.count else {
                guard shown == group.isVisibleByDefault else {
                    throw RendererError(
                        .unsupported, "Poppler cannot show or hide optional-content group \(group.index) (\(group.name)): the default configuration's /Order leaves it out",
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

extension PopplerDocument {
    /// How deep `/Order` arrays are followed before the order counts as a cycle.
    private static let orderDepthLimit = 32

    /// Throws `damaged` for a default configuration's `/Order` that poppler-glib's walk of the
    /// layers (22.12) would crash on: it writes a label (a string) into the group before it at
    /// its level, which is none for a label first in the top-level array or right after a
    /// nested array, and it follows nested arrays without end.
    private func checkGlibWalksLayerOrder() throws {
        let catalog = try resolved(.reference(try catalogReference()))
        let order = try resolved(try resolved(try resolved(catalog["OCProperties"])["D"])["Order"])
        try checkLabels(in: order.items, afterGroup: false, depth: 0)
    }

    private func checkLabels(in items: [PDFObject], afterGroup: Bool, depth: Int) throws {
        guard depth < Self.orderDepthLimit else {
            throw RendererError(.damaged, "the optional-content /Order nests deeper than \(Self.orderDepthLimit) arrays", rendererID: rendererID)
        }
        var afterGroup = afterGroup
        for item in items {
            switch try resolved(item) {
            case .dictionary:
                if case .reference = item { afterGroup = true }
            case .array(let nested) where !nested.isEmpty:
                try checkLabels(in: nested, afterGroup: true, depth: depth + 1)
                afterGroup = false
            case .string:
                guard afterGroup else {
                    throw RendererError(
                        .damaged, "the optional-content /Order has a label with no layer before it, which Poppler cannot read",
                        rendererID: rendererID)
                }
            default:
                continue
            }
        }
    }
}
