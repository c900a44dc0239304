import Foundation

/// Dates as XMP writes them: ISO 8601, from a year alone to seconds with a fraction, with
/// `Z` or an offset (XMP Part 1, 8.2.1.1.3).
enum XMPDate {
    /// The date in UTC to the second, such as `2024-03-09T16:00:00Z`.
    static func string(from date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// The date `text` names; nil when it is not one. A date without a time is midnight UTC.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime]
        if let date = full.date(from: trimmed) { return date }
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = full.date(from: trimmed) { return date }
        // A time to the minute, or a date alone: the forms XMP allows that ISO8601DateFormatter's
        // options do not name.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let match = trimmed.wholeMatch(of: /(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(Z|[+-]\d{2}:\d{2}))?)?)?/)
        guard let match else { return nil }
        var components = DateComponents(year: Int(match.1)!, month: match.2.map { Int($0)! } ?? 1, day: match.3.map { Int($0)! } ?? 1,
                                        hour: match.4.map { Int($0)! } ?? 0, minute: match.5.map { Int($0)! } ?? 0)
        guard (1...12).contains(components.month!), (1...31).contains(components.day!), components.hour! < 24, components.minute! < 60 else { return nil }
        components.timeZone = TimeZone(secondsFromGMT: 0)
        guard var date = calendar.date(from: components) else { return nil }
        if let zone = match.6, zone != "Z" {
            let sign: Double = zone.hasPrefix("-") ? -1 : 1
            let parts = zone.dropFirst().split(separator: ":").map { Double($0)! }
            date.addTimeInterval(-sign * (parts[0] * 3600 + parts[1] * 60))
        }
        return date
    }
}
