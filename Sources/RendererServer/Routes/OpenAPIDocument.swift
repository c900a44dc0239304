import Foundation
import RendererProvider
import RendererServerHTTP

/// The API's OpenAPI document as one server serves it: the document the module ships
/// (`openapi.json`), with what only the running server knows stated where the document
/// leaves it open: the renderers it has (`RendererID`), the kinds of annotation the library
/// creates (`CreatableKind`, from ``AnnotationKind/creatable``), the permissions of an
/// encrypted PDF (`PermissionName`, from `DocumentPermissions.named`) and its resolution limits
/// (`PageDPI`, `ComparisonDPI`). A client generating valid requests from it then sends only
/// what this server accepts.
struct OpenAPIDocument {
    /// The served document, as JSON.
    let data: Data

    /// The shipped document with `rendererIDs` and `limits` stated; 404 when the build
    /// ships none.
    init(rendererIDs: [String], limits: ServerLimits) throws {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "OpenAPI"),
            let bytes = try? Data(contentsOf: url),
            var document = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            var components = document["components"] as? [String: Any],
            var schemas = components["schemas"] as? [String: Any]
        else { throw APIError.notFound("this build has no OpenAPI document") }
        func state(_ name: String, _ key: String, _ value: Any) {
            guard var schema = schemas[name] as? [String: Any] else { return }
            schema[key] = value
            schemas[name] = schema
        }
        state("RendererID", "enum", rendererIDs)
        state("CreatableKind", "enum", AnnotationKind.creatable.map(\.rawValue))
        state("PermissionName", "enum", DocumentPermissions.named.map(\.name))
        state("PageDPI", "maximum", limits.maximumDPI)
        state("ComparisonDPI", "maximum", limits.comparisonMaximumDPI)
        components["schemas"] = schemas
        document["components"] = components
        data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}
