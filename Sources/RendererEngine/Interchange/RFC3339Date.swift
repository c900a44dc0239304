#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The date reading every JSON decoder of the project uses.
extension JSONDecoder.DateDecodingStrategy {
    /// Dates as RFC 3339 writes them, the form every JSON of the API, the collaboration
    /// protocol and the MCP tools takes (`2026-12-06T08:30:00Z`, `2026-12-06T09:30:00.25+01:00`):
    /// any offset RFC 3339 allows, up to ±23:59, where Foundation's own ISO 8601 reading stops
    /// at ±18:00 and refuses what a schema's `date-time` allows.
    public static var rfc3339: Self {
        .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339Date.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected date string to be RFC 3339-formatted.")
            }
            return date
        }
    }
}

/// Reads RFC 3339 date-times.
public enum RFC3339Date {
    /// The date `text` writes (full date, `T`, full time with optional fractional seconds, `Z`
    /// or an offset `±HH:MM` of at most 23:59), or nil.
    public static func parse(_ text: String) -> Date? {
        var local = Substring(text)
        var offset = 0
        let tail = Array(text.utf8.suffix(6))
        if tail.count == 6, tail[0] == UInt8(ascii: "+") || tail[0] == UInt8(ascii: "-"), tail[3] == UInt8(ascii: ":"),
            let hours = Int(String(decoding: tail[1...2], as: UTF8.self)), let minutes = Int(String(decoding: tail[4...5], as: UTF8.self)),
            (0...23).contains(hours), (0...59).contains(minutes)
        {
            offset = (hours * 60 + minutes) * 60 * (tail[0] == UInt8(ascii: "-") ? -1 : 1)
            local = local.dropLast(6)
        } else if local.last == "Z" || local.last == "z" {
            local = local.dropLast()
        } else {
            return nil
        }
        let universal = String(local) + "Z"
        let plain = Date.ISO8601FormatStyle()
        guard let date = (try? plain.parse(universal)) ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(universal)) else {
            return nil
        }
        return date.addingTimeInterval(TimeInterval(-offset))
    }
}
