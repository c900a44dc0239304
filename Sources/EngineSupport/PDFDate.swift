#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the date strings of PDF dictionaries (ISO 32000-1, 7.9.4): `D:YYYYMMDDHHmmSSOHH'mm'`,
/// where every part after the year may be missing and `O` is `Z`, `+` or `-`. A date without
/// an offset is taken as UTC.
package enum PDFDate {
    package static func parse(_ text: String) -> Date? {
        var rest = Substring(text.trimmingSpaces)
        if rest.hasPrefix("D:") { rest = rest.dropFirst(2) }

        func number(_ digits: Int, default value: Int?) -> Int? {
            let part = rest.prefix(digits)
            guard part.count == digits, part.allSatisfy(\.isASCII), let n = Int(part) else {
                return rest.isEmpty || !(rest.first?.isNumber ?? false) ? value : nil
            }
            rest = rest.dropFirst(digits)
            return n
        }

        guard let year = number(4, default: nil), let month = number(2, default: 1),
            let day = number(2, default: 1), let hour = number(2, default: 0),
            let minute = number(2, default: 0), let second = number(2, default: 0),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }

        var offset = 0
        if let sign = rest.first, sign == "+" || sign == "-" {
            rest = rest.dropFirst()
            let hours = number(2, default: 0) ?? 0
            if rest.first == "'" { rest = rest.dropFirst() }
            let minutes = number(2, default: 0) ?? 0
            offset = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
        }

        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        components.hour = hour
        components.minute = minute
        components.second = second
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar.date(from: components).map { $0.addingTimeInterval(TimeInterval(-offset)) }
    }

    /// The date as a PDF date string in UTC, such as `D:20240309160000Z`.
    package static func string(from date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(printf: "%02ld", value ?? 0) }
        return "D:\(String(printf: "%04ld", c.year ?? 0))\(two(c.month))\(two(c.day))\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
    }
}
