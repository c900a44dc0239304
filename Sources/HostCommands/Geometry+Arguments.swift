import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

/// Numbers, points and rectangles as options give them: numbers separated by commas.
package enum GeometryArgument {
    /// The numbers `text` gives (exactly `count` of them, when given); a usage error naming
    /// `option` otherwise.
    package static func numbers(_ text: String, count: Int?, option: String) throws -> [Double] {
        let values = text.split(separator: ",").map { Double($0.trimmingSpaces) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }), count.map({ values.count == $0 }) ?? true else {
            throw ValidationError("\(option): \"\(text)\" is not \(count.map { "\($0) numbers" } ?? "numbers") separated by commas")
        }
        return values.map { $0! }
    }

    /// The rectangle `text` (x,y,w,h) gives.
    package static func rectangle(_ text: String, option: String) throws -> PageRect {
        let v = try numbers(text, count: 4, option: option)
        return PageRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// The point `text` (x,y) gives.
    package static func point(_ text: String, option: String) throws -> PagePoint {
        let v = try numbers(text, count: 2, option: option)
        return PagePoint(x: v[0], y: v[1])
    }
}
