/// The renderers linked into the process, in order of preference.
public struct RendererRegistry: Sendable {
    /// The renderers, in the order `auto` tries those of them it chooses
    /// (`Renderer.isChosenByAuto`).
    public let renderers: [any Renderer]

    /// A registry of `renderers`; their ids must be distinct.
    public init(_ renderers: [any Renderer]) {
        precondition(Set(renderers.map(\.id)).count == renderers.count, "renderer ids must be distinct")
        self.renderers = renderers
    }

    /// The renderer with `id`, or an `invalidArgument` error that lists the linked ones.
    public func renderer(id: String) throws -> any Renderer {
        guard let renderer = renderers.first(where: { $0.id == id }) else {
            let known = renderers.map(\.id).joined(separator: ", ")
            throw RendererError(.invalidArgument, "no renderer named '\(id)'; linked: \(known.isEmpty ? "none" : known), or auto")
        }
        return renderer
    }

    /// Opens `source` with the renderer `backend` selects.
    ///
    /// With `.id`, that renderer must open the content type and have `capabilities`, or the
    /// call throws `unsupported`. With `.auto`, the renderers that do, of those `auto`
    /// chooses, are tried in order; one
    /// that finds the document damaged, or wants a password when none was given, hands it to
    /// the next, and any other error (a wrong password, a missing file) ends the search; when
    /// none opens it, the first one's error is thrown. The returned document records which
    /// renderer serves it.
    /// The engine's caches for the document stay within `limits`.
    public func open(
        _ source: DocumentSource, password: String? = nil, renderer selection: RendererSelection = .auto,
        needing capabilities: Set<Capability> = [], limits: DocumentLimits = DocumentLimits()
    ) throws -> Document {
        let contentType = try source.sniffContentType()
        var needed = capabilities
        switch source {
        case .file: needed.insert(.openFile)
        case .memory: needed.insert(.openMemory)
        case .stream: needed.insert(.openStream)
        }
        if password != nil { needed.insert(.passwords) }

        let candidates: [any Renderer]
        switch selection {
        case .id(let id):
            let renderer = try renderer(id: id)
            try Self.check(renderer, opens: contentType, with: needed)
            candidates = [renderer]
        case .auto:
            candidates = renderers.filter { $0.isChosenByAuto && (try? Self.check($0, opens: contentType, with: needed)) != nil }
            guard !candidates.isEmpty else {
                let names = needed.sorted().map(\.rawValue).joined(separator: ", ")
                throw RendererError(.unsupported, "no linked renderer opens \(contentType) with \(names)")
            }
        }

        var firstFailure: RendererError?
        for (position, renderer) in candidates.enumerated() {
            do {
                let fallbacks = selection == .auto ? Array(candidates[(position + 1)...]) : []
                return try Document(renderer: renderer, source: source, password: password, limits: limits, fallbacks: fallbacks)
            } catch let error as RendererError where error.code == .damaged || (error.code == .passwordRequired && password == nil) {
                // Another engine may read what this one finds damaged, or open without a password
                // a file this one wants one for (one whose embedded files alone are encrypted).
                firstFailure = firstFailure ?? error
            }
        }
        throw firstFailure!
    }

    private static func check(_ renderer: any Renderer, opens contentType: ContentType, with needed: Set<Capability>) throws {
        guard renderer.contentTypes.contains(contentType) else {
            throw RendererError(.unsupported, "does not open \(contentType)", rendererID: renderer.id)
        }
        let missing = needed.subtracting(renderer.capabilities(for: contentType))
        guard missing.isEmpty else {
            let names = missing.sorted().map(\.rawValue).joined(separator: ", ")
            throw RendererError(.unsupported, "lacks \(names)\(contentType == .pdf ? "" : " for \(contentType)")", rendererID: renderer.id)
        }
    }
}
