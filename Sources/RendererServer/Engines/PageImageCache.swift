import Foundation
import NIOCore

/// Encoded page images kept for repeated requests, least recently used first out, within a
/// budget of bytes. Keys name everything the bytes depend on (file version, engine, size),
/// so an entry never goes stale: a changed file is asked for under a new key.
actor PageImageCache {
    private struct Entry {
        var bytes: ByteBuffer
        var lastUse: UInt64
    }

    private let budget: Int
    private let metrics: ServerMetrics
    private var entries: [String: Entry] = [:]
    private var total = 0
    private var clock: UInt64 = 0

    /// A cache of at most `budget` bytes, counting its hits and misses in `metrics`.
    init(budget: Int, metrics: ServerMetrics) {
        self.budget = max(0, budget)
        self.metrics = metrics
    }

    /// The bytes stored under `key`, now the most recently used.
    func bytes(for key: String) -> ByteBuffer? {
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
    func store(_ bytes: ByteBuffer, for key: String) {
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
