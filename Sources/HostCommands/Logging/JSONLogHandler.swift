#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Writes each message to standard error as one JSON object a line (`--log-format json`), for
/// a log collector: `time` (ISO 8601, UTC, milliseconds), `level`, `label`, `source` (the
/// module that logged it) and `message`, then
/// the metadata (the handler's, its provider's, then the message's, the later winning on a
/// key), each under its own key: an integer or a finite `Double` as a number, anything else
/// as a string, a list as an array, a dictionary as an object. A key these fields use is kept under `metadata.` and its name. Each line is
/// written at once (``StandardStream``), after what standard output had buffered.
package struct JSONLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String

    package init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
        if let given = event.metadata { all.merge(given) { $1 } }
        let line = Self.line(
            time: Date(), level: event.level, label: label, source: event.source, message: event.message.description, metadata: all)
        StandardStream.error.write(line)
    }

    /// The line written for one message, its newline included.
    static func line(time: Date, level: Logger.Level, label: String, source: String, message: String, metadata: Logger.Metadata) -> String {
        var line = "{\"time\":" + quoted(time.formatted(Self.timeFormat))
        line += ",\"level\":" + quoted(level.rawValue) + ",\"label\":" + quoted(label) + ",\"source\":" + quoted(source)
            + ",\"message\":" + quoted(message)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            let name = ["time", "level", "label", "source", "message"].contains(key) ? "metadata." + key : key
            line += "," + quoted(name) + ":" + json(value)
        }
        return line + "}\n"
    }

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): quoted(string)
        case .stringConvertible(let number as any BinaryInteger): number.description
        case .stringConvertible(let number as Double) where number.isFinite: number.description
        case .stringConvertible(let convertible): quoted(convertible.description)
        case .array(let values): "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let entries):
            "{" + entries.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + json($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, the rest
    /// as it is (UTF-8).
    private static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                quoted += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
