import Foundation
import MCP
import RendererProvider

/// The arguments of one tool call, read strictly: a name the tool does not take, a value of
/// the wrong type or out of its range is an `invalidArgument` naming the argument, never a
/// guess. An agent's arguments are input from outside like any request's.
struct ToolArguments: Sendable {
    private let values: [String: Value]

    /// The arguments `values` gives, of which `accepted` are the names the tool takes and
    /// `required` those it must be given (not null).
    init(_ values: [String: Value]?, accepted: Set<String>, required: [String] = []) throws {
        self.values = values ?? [:]
        if let unknown = self.values.keys.sorted().first(where: { !accepted.contains($0) }) {
            throw RendererError(.invalidArgument, "this tool takes no argument \"\(unknown.prefix(100))\"; it takes \(accepted.sorted().joined(separator: ", "))")
        }
        if let missing = required.first(where: { self.values[$0]?.isNull ?? true }) {
            throw RendererError(.invalidArgument, "\(missing) is required")
        }
    }

    /// The string `name`, or nil when it is not given; at most `maximumLength` characters.
    func string(_ name: String, maximumLength: Int = 4096) throws -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw RendererError(.invalidArgument, "\(name) must be a string") }
        guard text.count <= maximumLength else { throw RendererError(.invalidArgument, "\(name) is longer than \(maximumLength) characters") }
        return text
    }

    /// The string `name`, which must be given.
    func requiredString(_ name: String, maximumLength: Int = 4096) throws -> String {
        guard let text = try string(name, maximumLength: maximumLength) else { throw RendererError(.invalidArgument, "\(name) is required") }
        return text
    }

    /// The whole number `name` within `range`, or nil when it is not given.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        let number: Int? =
            switch value {
            case .int(let integer): integer
            case .double(let double) where double.rounded() == double && abs(double) < 1e15: Int(double)
            default: nil
            }
        guard let number else { throw RendererError(.invalidArgument, "\(name) must be a whole number") }
        guard range.contains(number) else { throw RendererError(.invalidArgument, "\(name) must be from \(range.lowerBound) to \(range.upperBound)") }
        return number
    }

    /// The number `name` within `range`, or nil when it is not given.
    func number(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let value = values[name], !value.isNull else { return nil }
        let number: Double? =
            switch value {
            case .int(let integer): Double(integer)
            case .double(let double): double
            default: nil
            }
        guard let number, number.isFinite else { throw RendererError(.invalidArgument, "\(name) must be a number") }
        guard range.contains(number) else { throw RendererError(.invalidArgument, "\(name) must be from \(range.lowerBound) to \(range.upperBound)") }
        return number
    }

    /// The flag `name`, false when it is not given.
    func flag(_ name: String) throws -> Bool {
        guard let value = values[name], !value.isNull else { return false }
        guard let flag = value.boolValue else { throw RendererError(.invalidArgument, "\(name) must be true or false") }
        return flag
    }

    /// The value `name` decoded as `type` from its JSON, or nil when it is not given.
    func decoded<T: Decodable>(_ name: String, as type: T.Type) throws -> T? {
        guard let value = values[name], !value.isNull else { return nil }
        do {
            return try JSONDecoder.agentArguments.decode(T.self, from: JSONEncoder().encode(value))
        } catch let error as DecodingError {
            throw RendererError(.invalidArgument, "\(name): \(error.summary)")
        }
    }
}

extension JSONDecoder {
    /// How the tools read the values an agent sends: dates in ISO 8601, as they are written.
    static var agentArguments: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .rfc3339
        return decoder
    }
}
