import Foundation

/// The query parameters each operation declares, as the shipped OpenAPI document
/// (`OpenAPIDocument.shipped`) declares them, read once: by operation id and by the route
/// (method and path template) the operation is registered at.
enum DeclaredQueryParameters {
    /// What a query parameter must be, by the document.
    struct Expectation: Sendable {
        enum Kind: Sendable { case integer, number, boolean, other }
        var kind: Kind
        var allowed: [String]?
        var minimum: Double?
        var maximum: Double?
        var exclusiveMinimum: Double?

        /// What is wrong with `value` for this expectation, or nil when it is fine.
        func refusal(of value: String) -> String? {
            if let allowed, !allowed.contains(value) { return "must be one of \(allowed.joined(separator: ", "))" }
            let number: Double
            switch kind {
            case .other: return nil
            case .boolean: return value == "true" || value == "false" ? nil : "must be true or false"
            case .integer:
                guard let integer = Int(value) else { return "must be a whole number" + bounds }
                number = Double(integer)
            case .number:
                guard let real = Double(value), real.isFinite else { return "must be a number" + bounds }
                number = real
            }
            let within = (minimum.map { number >= $0 } ?? true) && (maximum.map { number <= $0 } ?? true)
                && (exclusiveMinimum.map { number > $0 } ?? true)
            return within ? nil : "must be a \(kind == .integer ? "whole number" : "number")" + bounds
        }

        private var bounds: String {
            let low = exclusiveMinimum.map { " above \(Self.text($0))" } ?? minimum.map { " from \(Self.text($0))" } ?? ""
            // 2^53 - 1, the document's bound of every whole number, says nothing to a reader.
            let high = maximum.flatMap { $0 >= 9_007_199_254_740_991 ? nil : " to \(Self.text($0))" } ?? ""
            return low + high
        }

        private static func text(_ number: Double) -> String {
            number == number.rounded() && abs(number) < 1e16 ? String(Int(number)) : String(number)
        }
    }

    /// Operation `id`'s query parameters by name; nil for an operation the document lacks.
    static func of(operation id: String) -> [String: Expectation]? {
        index.byOperation[id]
    }

    /// The query parameters by name of the operation at `path` (a template, as the router
    /// names a route: `/api/documents/{id}/search`) for `method`; nil when none is there.
    static func of(method: String, path: String) -> [String: Expectation]? {
        index.byRoute[routeKey(method: method, path: path)]
    }

    private static func routeKey(method: String, path: String) -> String {
        method.uppercased() + " /" + path.drop { $0 == "/" }
    }

    private static let index: (byOperation: [String: [String: Expectation]], byRoute: [String: [String: Expectation]]) = {
        guard case .success(let data?) = OpenAPIDocument.shipped,
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let paths = document["paths"] as? [String: [String: Any]]
        else { return ([:], [:]) }
        let components = document["components"] as? [String: Any] ?? [:]
        func resolved(_ object: [String: Any]) -> [String: Any] {
            guard let reference = object["$ref"] as? String, reference.hasPrefix("#/components/") else { return object }
            let parts = reference.dropFirst("#/components/".count).split(separator: "/").map(String.init)
            guard parts.count == 2, let found = (components[parts[0]] as? [String: Any])?[parts[1]] as? [String: Any] else { return object }
            return resolved(found)
        }
        var byOperation: [String: [String: Expectation]] = [:]
        var byRoute: [String: [String: Expectation]] = [:]
        for (path, item) in paths {
            let shared = item["parameters"] as? [[String: Any]] ?? []
            for (method, value) in item {
                guard let operation = value as? [String: Any], let id = operation["operationId"] as? String else { continue }
                var declared: [String: Expectation] = [:]
                for parameter in (shared + (operation["parameters"] as? [[String: Any]] ?? [])).map(resolved) where parameter["in"] as? String == "query" {
                    guard let name = parameter["name"] as? String else { continue }
                    let schema = resolved(parameter["schema"] as? [String: Any] ?? [:])
                    let kind: Expectation.Kind =
                        switch schema["type"] as? String {
                        case "integer": .integer
                        case "number": .number
                        case "boolean": .boolean
                        default: .other
                        }
                    declared[name] = Expectation(
                        kind: kind, allowed: schema["enum"] as? [String], minimum: (schema["minimum"] as? NSNumber)?.doubleValue,
                        maximum: (schema["maximum"] as? NSNumber)?.doubleValue, exclusiveMinimum: (schema["exclusiveMinimum"] as? NSNumber)?.doubleValue)
                }
                byOperation[id] = declared
                byRoute[routeKey(method: method, path: path)] = declared
            }
        }
        return (byOperation, byRoute)
    }()
}
