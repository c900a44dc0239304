import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// `GET /api/documents/{id}/layers?renderer=`: the document's optional-content layers and
    /// configurations (``Layer``, ``LayerConfiguration``); both empty for a document whose
    /// engine reads none (a format other than PDF).
    @Sendable func layers(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        try Self.json(
            try await engineWork(request, context) { document, _ in
                guard document.renderer.capabilities(for: document.contentType).contains(.layers) else { return Payload.Layers(layers: [], configurations: []) }
                return Payload.Layers(layers: try document.layers(), configurations: try document.layerConfigurations())
            })
    }

    /// The most layer indices one of `show` and `hide` may name.
    static let maximumLayersNamed = 1000

    /// The layers a page image shows and hides: `show=` and `hide=`, each a comma-separated
    /// list of layer indices (from 0); 400 for anything else. The engine then refuses (400) an
    /// index the document lacks.
    static func layerVisibility(_ request: Request) throws -> LayerVisibility {
        func indices(_ name: String) throws -> Set<Int> {
            guard let text = try queryText(name, request), !text.isEmpty else { return [] }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count <= maximumLayersNamed else { throw APIError.badRequest("\(name) may name at most \(maximumLayersNamed) layers") }
            return try Set(parts.map { part in
                guard let index = Int(part), index >= 0 else {
                    throw APIError.badRequest("\(name) must be layer indices from 0, separated by commas, not \"\(text.prefix(40))\"")
                }
                return index
            })
        }
        return LayerVisibility(shown: try indices("show"), hidden: try indices("hide"))
    }
}
