/// A MIME type that a renderer opens.
public struct ContentType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// PDF documents.
    public static let pdf = ContentType(rawValue: "application/pdf")

    public var description: String { rawValue }
}
