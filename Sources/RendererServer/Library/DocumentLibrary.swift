import Foundation
import RendererProvider

/// The served documents that requests have touched, by id, at most `capacity` of them open
/// at once: the least recently used is closed when another is needed. A path has one
/// ``ServedDocument`` for the server's life, so its edits always take turns in one place.
actor DocumentLibrary {
    let catalog: DocumentCatalog
    private let context: ServerContext
    private let capacity: Int
    private var open: [String: (document: ServedDocument, lastUse: UInt64)] = [:]
    private var closed: [String: ServedDocument] = [:]
    private var clock: UInt64 = 0

    init(catalog: DocumentCatalog, context: ServerContext, capacity: Int = 32) {
        self.catalog = catalog
        self.context = context
        self.capacity = max(1, capacity)
    }

    /// The served document `id` names; throws 404 or 403 as ``DocumentCatalog`` resolves.
    func document(_ id: String) throws -> ServedDocument {
        let path = try catalog.resolve(id: id)
        clock += 1
        if let entry = open[path] {
            open[path]?.lastUse = clock
            return entry.document
        }
        // One served document per path, ever: the library's state is settled before it waits
        // for anything, so a request that comes meanwhile finds this one.
        let document = closed.removeValue(forKey: path) ?? ServedDocument(id: id, path: path, context: context)
        open[path] = (document, clock)
        if open.count > capacity, let oldest = open.filter({ $0.key != path }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
            open.removeValue(forKey: oldest.key)
            closed[oldest.key] = oldest.value.document
            // Closed apart from this lookup: its edit in flight, if any, ends first
            // (ServedDocument.close waits its turn), and no other request waits for that.
            let evicted = oldest.value.document
            Task { await evicted.close() }
        }
        return document
    }

    /// Closes every document's pools and session, those evicted included (a close already
    /// under way is waited for), and returns when their engine documents are given back.
    func closeAll() async {
        for document in open.values.map(\.document) + closed.values { await document.close() }
    }
}
