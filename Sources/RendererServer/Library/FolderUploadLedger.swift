import RendererLayers

/// The uploads' ledger of a server alone, in memory: the uploads found in the folder when the
/// server started (in the order of their times) and those kept since, and the bytes of each
/// upload being received, counted exactly as they arrive.
actor FolderUploadLedger: UploadLedger {
    nonisolated var reservationStep: Int? { nil }
    private var kept: [(name: String, bytes: Int)]
    private var receiving: [String: Int] = [:]

    /// A ledger of the uploads `kept`, the first kept first.
    init(kept: [(name: String, bytes: Int)]) {
        self.kept = kept
    }

    func reserve(_ bytes: Int, for upload: String, budget: Int) -> (removed: [String], admitted: Bool) {
        var removed: [String] = []
        while counted + bytes > budget, !kept.isEmpty { removed.append(kept.removeFirst().name) }
        guard counted + bytes <= budget else { return (removed, false) }
        receiving[upload, default: 0] += bytes
        return (removed, true)
    }

    func keep(_ upload: String, as name: String, bytes: Int) {
        receiving[upload] = nil
        kept.append((name, bytes))
    }

    func discard(_ upload: String) {
        receiving[upload] = nil
    }

    /// The bytes of the uploads kept and of those being received.
    private var counted: Int { kept.reduce(0) { $0 + $1.bytes } + receiving.values.reduce(0, +) }
}
