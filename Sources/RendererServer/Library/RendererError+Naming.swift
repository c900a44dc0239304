import RendererProvider

extension RendererError {
    /// The error with every mention of `path`, a file on the server's disk, replaced by the
    /// document's id: clients see ids, never where the server keeps its files.
    func naming(_ path: String, as id: String) -> RendererError {
        var named = self
        named.message = message.replacingOccurrences(of: path, with: id)
        named.engineMessage = engineMessage?.replacingOccurrences(of: path, with: id)
        return named
    }
}

/// Runs `body`, rewriting a `RendererError` it throws as ``RendererError/naming(_:as:)`` does.
func naming<T>(
    _ path: String, as id: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
) async throws -> T {
    do {
        return try await body()
    } catch let error as RendererError {
        throw error.naming(path, as: id)
    }
}
