import Foundation
import HTTPTypes
import RendererServerHTTP

/// The words of a 400 for a query parameter the generated code could not read: its own error
/// says what failed (a number, a value of a list) but not which parameter, so the parameter is
/// found again against the operation's parameters as the OpenAPI document declares them
/// (`OpenAPIDocument.shipped`) and named with what it must be.
enum QueryParameterRefusal {
    /// What a query parameter must be, by the document.
    struct Expectation: Sendable {
        enum Kind: Sendable { case integer, number, other }
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

    /// Why the query of `request` does not meet operation `operationID`'s parameters, naming
    /// the first that does not (`first must be a whole number from 1, not "abc"`); nil when
    /// each declared parameter given reads as the document says.
    static func message(operationID: String, request: HTTPRequest) -> String? {
        guard let declared = parameters[operationID], let path = request.path, let mark = path.firstIndex(of: "?") else { return nil }
        for pair in path[path.index(after: mark)...].split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Routes.formDecoded(halves[0]), let expectation = declared[name] else { continue }
            guard let value = halves.count > 1 ? Routes.formDecoded(halves[1]) : "" else { return "\(name) is not percent-encoded UTF-8" }
            if let refusal = expectation.refusal(of: value) { return "\(name) \(refusal), not \"\(value.prefix(40))\"" }
        }
        return nil
    }

    /// Each operation's query parameters by name, read once from the shipped document.
    private static let parameters: [String: [String: Expectation]] = {
        guard case .success(let data?) = OpenAPIDocument.shipped,
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let paths = document["paths"] as? [String: [String: Any]]
        else { return [:] }
        let components = document["components"] as? [String: Any] ?? [:]
        func resolved(_ object: [String: Any]) -> [String: Any] {
            guard let reference = object["$ref"] as? String, reference.hasPrefix("#/components/") else { return object }
            let parts = reference.dropFirst("#/components/".count).split(separator: "/").map(String.init)
            guard parts.count == 2, let found = (components[parts[0]] as? [String: Any])?[parts[1]] as? [String: Any] else { return object }
            return resolved(found)
        }
        var index: [String: [String: Expectation]] = [:]
        for item in paths.values {
            let shared = item["parameters"] as? [[String: Any]] ?? []
            for case let operation as [String: Any] in item.values {
                guard let id = operation["operationId"] as? String else { continue }
                for parameter in (shared + (operation["parameters"] as? [[String: Any]] ?? [])).map(resolved) where parameter["in"] as? String == "query" {
                    guard let name = parameter["name"] as? String else { continue }
                    let schema = resolved(parameter["schema"] as? [String: Any] ?? [:])
                    let kind: Expectation.Kind =
                        switch schema["type"] as? String {
                        case "integer": .integer
                        case "number": .number
                        default: .other
                        }
                    index[id, default: [:]][name] = Expectation(
                        kind: kind, allowed: schema["enum"] as? [String], minimum: (schema["minimum"] as? NSNumber)?.doubleValue,
                        maximum: (schema["maximum"] as? NSNumber)?.doubleValue, exclusiveMinimum: (schema["exclusiveMinimum"] as? NSNumber)?.doubleValue)
                }
            }
        }
        return index
    }()
}
