/// Bounds on what an engine may keep for one open document, given when it is opened.
public struct DocumentLimits: Hashable, Sendable {
    /// The most memory, in bytes, the engine keeps in its caches between operations
    /// (decoded images and fonts, drawn glyphs). An operation may use more while it runs,
    /// and a document's structure (its parsed objects) is not a cache. Engines whose caches
    /// are fixed in size ignore it; each renderer's documentation says which.
    public var cacheBytes: Int

    /// The default cache size: 64 MiB, which holds the images and fonts of a few heavy pages.
    public static let defaultCacheBytes = 64 << 20

    /// Limits that keep the engine's caches within `cacheBytes`.
    public init(cacheBytes: Int = DocumentLimits.defaultCacheBytes) {
        precondition(cacheBytes > 0, "a cache limit must be positive")
        self.cacheBytes = cacheBytes
    }
}
