extension Sequence {
    /// The elements transformed by `transform`, one after another, in order: `map` for a
    /// transform that waits (a program run with ``Tool/run(_:_:environment:input:)``).
    public func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
