import Foundation
import NIOCore

/// Encoded page images kept for repeated requests, least recently used first out, within a
/// budget of bytes, and, when servers share a memcached (`--shared-cache`), there too for a
/// day (memcached's own memory limit evicts the least used), so that a page one server drew
/// is served by the others. Keys name everything the bytes depend on (file version, engine,
/// size), so an entry never goes stale: a changed file is asked for under a new key.
actor PageImageCache {
    private struct Entry {
        var bytes: ByteBuffer
        var lastUse: UInt64
    }

    private let budget: Int
    private let metrics: ServerMetrics
    private nonisolated let shared: MemcachedClient?
    private var entries: [String: Entry] = [:]
    private var total = 0
    private var clock: UInt64 = 0

    /// How long the shared cache keeps an image.
    static let sharedSeconds = 86_400

    /// A cache of at most `budget` bytes, with `shared` behind it, counting its hits and
    /// misses in `metrics`.
    init(budget: Int, shared: MemcachedClient? = nil, metrics: ServerMetrics) {
        self.budget = max(0, budget)
        self.shared = shared
        self.metrics = metrics
    }

    /// The bytes kept under `key`: this server's, else the shared cache's (then kept here
    /// too); nil when neither has them.
    nonisolated func lookup(_ key: String) async -> ByteBuffer? {
        if let bytes = await bytes(for: key) { return bytes }
        guard let shared else { return nil }
        let found = await shared.get(Self.sharedKey(key))
        metrics.recordSharedCacheLookup(hit: found != nil)
        if let found { await store(found, for: key) }
        return found
    }

    /// Keeps `bytes` under `key`, here and in the shared cache.
    nonisolated func keep(_ bytes: ByteBuffer, for key: String) async {
        await store(bytes, for: key)
        await shared?.set(Self.sharedKey(key), bytes, seconds: Self.sharedSeconds)
    }

    /// The shared cache's key for `key`: memcached's keys are at most 250 bytes without
    /// spaces, so a digest, under a prefix of this program's.
    private static func sharedKey(_ key: String) -> String {
        "hostapp-page-" + Secrets.digest(of: [key])
    }

    /// The bytes stored under `key`, now the most recently used.
    private func bytes(for key: String) -> ByteBuffer? {
        guard var entry = entries[key] else {
            metrics.recordCacheLookup(hit: false)
            return nil
        }
        metrics.recordCacheLookup(hit: true)
        clock += 1
        entry.lastUse = clock
        entries[key] = entry
        return entry.bytes
    }

    /// Stores `bytes` under `key`, evicting the least recently used entries to stay in
    /// budget; an image larger than the whole budget is not kept.
    private func store(_ bytes: ByteBuffer, for key: String) {
        guard bytes.readableBytes <= budget else { return }
        if let old = entries.removeValue(forKey: key) { total -= old.bytes.readableBytes }
        while total + bytes.readableBytes > budget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            total -= oldest.value.bytes.readableBytes
            entries.removeValue(forKey: oldest.key)
        }
        clock += 1
        entries[key] = Entry(bytes: bytes, lastUse: clock)
        total += bytes.readableBytes
    }

    /// The bytes held now.
    var byteCount: Int { total }
}
