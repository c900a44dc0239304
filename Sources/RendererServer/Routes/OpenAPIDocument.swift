import Foundation
import RendererProvider
import RendererServerHTTP
import Yams

/// The API's OpenAPI document as one server serves it: the document the module ships
/// (`OpenAPI/openapi.yaml`, the API's one written contract), as JSON, with what only the
/// running server knows stated where the document leaves it open: the renderers it has
/// (`RendererID`), the kinds of annotation the library creates (`CreatableKind`, from
/// ``AnnotationKind/creatable``), the permissions of an encrypted PDF (`PermissionName`, from
/// `DocumentPermissions.named`) and its resolution limits (`PageDPI`, `ComparisonDPI`). A
/// client generating valid requests from it then sends only what this server accepts.
struct OpenAPIDocument {
    /// The served document, as JSON.
    let data: Data

    /// The shipped document with `rendererIDs` and `limits` stated; 404 when the build
    /// ships none.
    init(rendererIDs: [String], limits: ServerLimits) throws {
        guard let shipped = try Self.shipped.get(),
            var document = try JSONSerialization.jsonObject(with: shipped) as? [String: Any],
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

    /// The shipped YAML document as JSON, read once: nil when the build ships none, an error
    /// when it holds what JSON cannot (a date, a key that is not a string).
    static let shipped: Result<Data?, Error> = Result {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return nil }
        return try json(yaml: text)
    }

    /// The YAML document `text` as JSON, each alias as the value it names.
    static func json(yaml text: String) throws -> Data {
        guard let node = try Yams.compose(yaml: text) else { throw APIError(.internalServerError, code: "internal", "the OpenAPI document is empty") }
        return try JSONSerialization.data(withJSONObject: try json(node), options: [.sortedKeys])
    }

    /// `node` as the value JSONSerialization writes: mappings with string keys, sequences,
    /// and the scalars YAML's core schema resolves (strings, integers, numbers, booleans, null).
    private static func json(_ node: Node) throws -> Any {
        switch node {
        case .mapping(let mapping):
            var object: [String: Any] = [:]
            for (key, value) in mapping {
                guard case .scalar(let name) = key, Tag.Name(rawValue: key.tag.rawValue) == .str else { throw unreadable(key) }
                object[name.string] = try json(value)
            }
            return object
        case .sequence(let sequence):
            return try sequence.map(json)
        case .scalar(let scalar):
            let value: Any?
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .str: value = scalar.string
            case .int: value = node.int
            case .float: value = node.float
            case .bool: value = node.bool
            case .null: value = NSNull()
            default: value = nil
            }
            guard let value else { throw unreadable(node) }
            return value
        case .alias:
            throw unreadable(node)
        }
    }

    private static func unreadable(_ node: Node) -> Error {
        APIError(.internalServerError, code: "internal", "the OpenAPI document holds a value JSON cannot, at line \(node.mark?.line ?? 0)")
    }
}
