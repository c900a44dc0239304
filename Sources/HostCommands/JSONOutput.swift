#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes values as the JSON that `--json` prints: pretty, keys sorted, dates in ISO 8601;
/// or, for streams of events, one compact object per line.
package enum JSONOutput {
    package static func print<T: Encodable>(_ value: T) throws {
        Swift.print(String(decoding: try data(value), as: UTF8.self))
    }

    /// `value` as one line of JSON, written at once (flushed: a program reading the pipe sees
    /// each line as it happens); a value that cannot be encoded is left out.
    package static func printLine(_ value: some Encodable) {
        guard let line = try? data(value, pretty: false) else { return }
        StandardStream.output.write(line + Data("\n".utf8))
    }

    /// `value` encoded as this type writes JSON.
    package static func data(_ value: some Encodable, pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }
}
