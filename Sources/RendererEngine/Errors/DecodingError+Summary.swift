/// A decoding failure told to whoever wrote the JSON.
extension DecodingError {
    /// What is wrong and where, for a message to whoever wrote the JSON: such as
    /// `missing "title" (at [0].children[2])` or `Expected Double … (at .point.x)`.
    public var summary: String {
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "at the top" : "at " + path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(context.debugDescription) (\(place(context.codingPath)))"
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\" (\(place(context.codingPath)))"
        @unknown default:
            return "\(self)"
        }
    }
}
