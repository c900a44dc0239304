/// Where the space of a folder of uploads is accounted: the uploads kept (their names and
/// sizes, in the order they were kept) and the bytes each upload being received has taken so
/// far, against one budget. A server alone keeps it in memory; servers sharing the folder and
/// a PostgreSQL database keep it there (``PostgresLayerStore``), so that the budget holds for
/// all of them together.
package protocol UploadLedger: Sendable {
    /// The bytes to count at a time for an upload being received, when its length is not
    /// declared (a declared length is counted at once): the ledger is asked again only once
    /// they are used up, so that a database is not asked for every part of a body. Nil to
    /// count each part exactly as it arrives.
    var reservationStep: Int? { get }

    /// Counts `bytes` more for the upload being received as `receiving`, after taking out of
    /// the ledger the oldest kept uploads while everything counted would pass `budget`.
    /// Returns the names taken out (whose files the caller deletes) and whether the bytes
    /// were counted: false when taking out every kept upload still leaves no room.
    func reserve(_ bytes: Int, for receiving: String, budget: Int) async throws -> (removed: [String], admitted: Bool)
    /// Counts the upload received as `receiving` as the kept upload `name`, of `bytes`.
    func keep(_ receiving: String, as name: String, bytes: Int) async throws
    /// Stops counting the upload being received as `receiving`.
    func discard(_ receiving: String) async throws
}

extension UploadLedger {
    /// How long an upload being received may go without growing before a ledger no longer
    /// counts it and its hidden file may be removed (its server died, or its body stalled
    /// far past any server's limit), in seconds.
    package static var receivingIdleLimit: Double { 600 }
}
