#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An annotation's flags (`/F`, ISO 32000-1, 12.5.3).
public struct AnnotationFlags: OptionSet, Hashable, Sendable, Codable {
    public var rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Not shown when the viewer has no handler for the annotation's kind.
    public static let invisible = AnnotationFlags(rawValue: 1 << 0)
    /// Neither shown nor printed.
    public static let hidden = AnnotationFlags(rawValue: 1 << 1)
    /// Printed with the page; set on every annotation the API creates unless asked otherwise.
    public static let print = AnnotationFlags(rawValue: 1 << 2)
    /// Not scaled with the page's zoom.
    public static let noZoom = AnnotationFlags(rawValue: 1 << 3)
    /// Not rotated with the page.
    public static let noRotate = AnnotationFlags(rawValue: 1 << 4)
    /// Not shown on screen (it may still print).
    public static let noView = AnnotationFlags(rawValue: 1 << 5)
    /// Shown, but not changed or interacted with by the user.
    public static let readOnly = AnnotationFlags(rawValue: 1 << 6)
    /// Not deleted or moved by the user; its contents may change.
    public static let locked = AnnotationFlags(rawValue: 1 << 7)
    /// ``noView`` is inverted for certain events, such as the pointer over the annotation.
    public static let toggleNoView = AnnotationFlags(rawValue: 1 << 8)
    /// Its contents are not changed by the user; it may move.
    public static let lockedContents = AnnotationFlags(rawValue: 1 << 9)

    /// Each flag with its XFDF name, in bit order.
    public static let names: [(flag: AnnotationFlags, name: String)] = [
        (.invisible, "invisible"), (.hidden, "hidden"), (.print, "print"), (.noZoom, "nozoom"),
        (.noRotate, "norotate"), (.noView, "noview"), (.readOnly, "readonly"), (.locked, "locked"),
        (.toggleNoView, "togglenoview"), (.lockedContents, "lockedcontents"),
    ]

    /// The flags' names as XFDF writes them: comma-separated, in bit order.
    public var xfdfValue: String {
        Self.names.filter { contains($0.flag) }.map(\.name).joined(separator: ",")
    }

    /// The flags an XFDF `flags` value names; nil when it names an unknown flag.
    public init?(xfdfValue: String) {
        var flags = AnnotationFlags()
        for name in xfdfValue.split(separator: ",").map({ $0.trimmingSpaces.lowercased() }) where !name.isEmpty {
            guard let flag = Self.names.first(where: { $0.name == name }) else { return nil }
            flags.insert(flag.flag)
        }
        self = flags
    }
}
