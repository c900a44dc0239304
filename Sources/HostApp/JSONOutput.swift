import Foundation

/// Writes values as the JSON that `--json` prints: pretty, keys sorted, dates in ISO 8601.
enum JSONOutput {
    static func print<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        Swift.print(String(decoding: data, as: UTF8.self))
    }
}
